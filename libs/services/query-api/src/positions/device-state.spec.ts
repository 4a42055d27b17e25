import { PositionReportedV1 } from '@fleet/contracts';
import { DeviceState, NO_DEVICE_STATE, toRecords } from './device-state';

let sequence = 0;
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 8, minute)).toISOString();
const fix = (minute: number, readings: Partial<PositionReportedV1> = {}): PositionReportedV1 => ({
  eventId: `00000000-0000-4000-8000-${String((sequence += 1)).padStart(12, '0')}`,
  vehicleId: 7,
  imei: '123456789012345',
  fixTime: at(minute),
  receivedAt: at(minute),
  lat: 52.5,
  lng: 13.4,
  ...readings,
});
const state = (minute: number, rest: Partial<DeviceState> = {}): DeviceState => ({
  ...NO_DEVICE_STATE,
  orderMs: Date.parse(at(minute)),
  ...rest,
});
const shown = (records: PositionReportedV1[]) =>
  records.map(({ doorLocked, engineEnabled, odometerM }) => ({ doorLocked, engineEnabled, odometerM }));

describe('toRecords: door and engine state', () => {
  it('carries the latest reported state into fixes that lack it, in fix order', () => {
    const events = [
      fix(3),
      fix(1, { doorLocked: true, engineEnabled: false }),
      fix(2, { doorLocked: false }),
      fix(4, { engineEnabled: true }),
    ];
    const { records, state: after } = toRecords(events, NO_DEVICE_STATE, 0);
    expect(shown(records)).toEqual([
      { doorLocked: false, engineEnabled: false, odometerM: undefined },
      { doorLocked: true, engineEnabled: false, odometerM: undefined },
      { doorLocked: false, engineEnabled: false, odometerM: undefined },
      { doorLocked: false, engineEnabled: true, odometerM: undefined },
    ]);
    expect(after).toEqual(state(4, { doorLocked: false, engineEnabled: true }));
  });

  it('starts from the state of the last position', () => {
    const { records } = toRecords([fix(11)], state(10, { doorLocked: true, engineEnabled: false }), 0);
    expect(shown(records)).toEqual([{ doorLocked: true, engineEnabled: false, odometerM: undefined }]);
  });

  it('stores a fix older than the last position as reported, and leaves the state alone', () => {
    const before = state(10, { doorLocked: true, engineEnabled: true, deviceOdometerM: 900 });
    const late = fix(5, { odometerM: 500 });
    const { records, state: after } = toRecords([late], before, 0);
    expect(records[0]).toBe(late);
    expect(after).toEqual(before);
  });

  it('keeps the state a fix at the last position time had (a redelivered report)', () => {
    const before = state(10, { doorLocked: true });
    const again = fix(10, { doorLocked: false });
    const { records, state: after } = toRecords([again], before, 0);
    expect(records[0]).toBe(again);
    expect(after).toEqual(before);
  });

  it('follows the first of two fixes with the same time, which history keeps', () => {
    const { state: after } = toRecords(
      [fix(1, { doorLocked: true }), fix(1, { doorLocked: false })],
      NO_DEVICE_STATE,
      0,
    );
    expect(after.doorLocked).toBe(true);
  });

  it('ranks a fix ahead of its arrival at its arrival, so the fixes after it still advance the state', () => {
    // Fixed at minute 10 by a clock running ahead, received at minute 2; then fixes of minutes 3 and 4.
    const ahead = { ...fix(10, { doorLocked: true }), receivedAt: at(2) };
    const { records, state: after } = toRecords(
      [ahead, fix(3, { doorLocked: false }), fix(4, { engineEnabled: true })],
      NO_DEVICE_STATE,
      0,
    );
    expect(shown(records).map((record) => record.doorLocked)).toEqual([true, false, false]);
    expect(after).toEqual(state(4, { doorLocked: false, engineEnabled: true }));
    // And after a stored position that came in ahead of its time, a fix newer than its arrival counts.
    const { state: next } = toRecords([fix(5, { doorLocked: true })], state(2, { doorLocked: false }), 0);
    expect(next.doorLocked).toBe(true);
  });

  it('passes events through untouched when there is nothing to carry', () => {
    const events = [fix(1), fix(2, { doorLocked: true, engineEnabled: true })];
    const { records } = toRecords(events, NO_DEVICE_STATE, 0);
    expect(records[0]).toBe(events[0]);
    expect(records[1]).toBe(events[1]);
  });
});

describe('toRecords: odometer', () => {
  it('adds the offset to every reading, late ones included, and remembers the raw reading', () => {
    const events = [fix(12, { odometerM: 12_000 }), fix(5, { odometerM: 9_000 }), fix(13)];
    const { records, state: after } = toRecords(events, state(10, { deviceOdometerM: 10_000 }), 40_000);
    expect(shown(records).map((record) => record.odometerM)).toEqual([52_000, 49_000, undefined]);
    expect(after.deviceOdometerM).toBe(12_000);
  });

  it('keeps the device reading of the last position when no newer fix carries one', () => {
    const { state: after } = toRecords([fix(11)], state(10, { deviceOdometerM: 10_000 }), 0);
    expect(after.deviceOdometerM).toBe(10_000);
  });

  it('shows readings as the device sent them without an offset', () => {
    const event = fix(1, { odometerM: 1_523.4 });
    const { records } = toRecords([event], NO_DEVICE_STATE, 0);
    expect(records[0]).toBe(event);
  });

  it('does not change the events it was given', () => {
    const event = fix(1, { odometerM: 100 });
    toRecords([event, fix(2)], state(0, { doorLocked: true }), 500);
    expect(event.odometerM).toBe(100);
    expect(event.doorLocked).toBeUndefined();
  });
});
