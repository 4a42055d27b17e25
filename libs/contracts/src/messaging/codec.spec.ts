import {
  checkForPublish,
  decodeEvent,
  decodeEvents,
  encodeEvent,
  encodeEvents,
  EventSchemaError,
} from './codec';
import { defineTopic } from './topic';
import { Topics } from '../topics';
import { PositionReportedV1 } from '../events/position-reported.v1';
import { VehicleSnapshotV1 } from '../events/vehicle-snapshot.v1';

const position: PositionReportedV1 = {
  eventId: '6f1c5f38-7c1e-4bf0-9a45-7d6c1a1b2c3d',
  vehicleId: 7,
  imei: '350000000000007',
  fixTime: '2026-03-01T08:00:00.000Z',
  receivedAt: '2026-03-01T08:00:01.000Z',
  lat: 52.5,
  lng: 13.4,
  speedKmh: 42,
};

describe('event codec', () => {
  it('round-trips a valid payload', () => {
    const decoded = decodeEvent(Topics.positions, encodeEvent(Topics.positions, position));
    expect(decoded).toEqual(position);
  });

  it('validates topics without a fast check by their payload class', () => {
    const snapshot = {
      vehicleId: 7,
      name: 'Van',
      imei: '350000000000007',
      vin: null,
      companyIds: [1],
      deleted: false,
      version: 1,
      updatedAt: '2026-03-01T08:00:00.000Z',
    };
    const decoded = decodeEvent(Topics.vehicleSnapshots, encodeEvent(Topics.vehicleSnapshots, snapshot));
    expect(decoded).toBeInstanceOf(VehicleSnapshotV1);
    expect(() => encodeEvent(Topics.vehicleSnapshots, { ...snapshot, companyIds: ['x'] as never })).toThrow(
      /companyIds/,
    );
  });

  it('refuses to encode a payload that breaks the schema, naming the field', () => {
    expect(() => encodeEvent(Topics.positions, { ...position, lat: 123 })).toThrow(/lat: invalid/);
  });

  it('rejects what cannot be decoded', () => {
    expect(() => decodeEvent(Topics.positions, null)).toThrow(EventSchemaError);
    expect(() => decodeEvent(Topics.positions, '{oops')).toThrow(/not valid JSON/);
    expect(() => decodeEvent(Topics.positions, '[1,2]')).toThrow(/must be a JSON object/);
    expect(() => decodeEvent(Topics.positions, JSON.stringify({ ...position, vehicleId: 'seven' }))).toThrow(
      /vehicleId/,
    );
  });

  it('drops fields it does not know, so a newer producer can add optional ones', () => {
    const decoded = decodeEvent(Topics.positions, JSON.stringify({ ...position, futureField: 'x' }));
    expect(decoded).not.toHaveProperty('futureField');
  });

  describe('grouped messages (several events of one key)', () => {
    const second = {
      ...position,
      eventId: '7a2d6e49-8d2f-4c01-8b56-8e7d2b2c3d4e',
      fixTime: '2026-03-01T08:00:01.000Z',
    };

    it('round-trips the events of one message in their order', () => {
      const raw = encodeEvents(Topics.positions, [position, second]);
      expect(decodeEvents(Topics.positions, raw)).toEqual([position, second]);
      expect(decodeEvents(Topics.positions, Buffer.from(raw))).toEqual([position, second]);
    });

    it("writes a group as its events' own texts in an array, unknown fields dropped", () => {
      const { payload: checked } = checkForPublish(Topics.positions, { ...second });
      const unchecked = { ...position, futureField: 'x' };
      const raw = encodeEvents(Topics.positions, [unchecked, checked!]);
      expect(raw).toBe(
        `[${encodeEvent(Topics.positions, unchecked)},${encodeEvent(Topics.positions, checked!)}]`,
      );
      expect(raw).not.toContain('futureField');
    });

    it('reads a message of one event as a list of one', () => {
      expect(decodeEvents(Topics.positions, encodeEvent(Topics.positions, position))).toEqual([position]);
    });

    it('refuses to encode a group with one bad event, or on a topic that does not group', () => {
      expect(() => encodeEvents(Topics.positions, [position, { ...second, lat: 123 }])).toThrow(
        /lat: invalid/,
      );
      expect(() => encodeEvents(Topics.vehicleSnapshots, [])).toThrow(/does not group/);
    });

    it('refuses a whole message with one bad event, naming the event', () => {
      const raw = JSON.stringify([position, { ...second, vehicleId: 'seven' }]);
      expect(() => decodeEvents(Topics.positions, raw)).toThrow(/event 1: vehicleId/);
      expect(() => decodeEvents(Topics.positions, '[]')).toThrow(/holds no event/);
      expect(() => decodeEvents(Topics.positions, '[1]')).toThrow(/event 0: payload must be a JSON object/);
    });

    it('refuses an array on a topic that does not group', () => {
      expect(() => decodeEvents(Topics.vehicleSnapshots, '[{}]')).toThrow(/must be a JSON object/);
    });
  });

  describe('checkForPublish', () => {
    it('answers the problems of a bad payload instead of throwing', () => {
      const { problems, payload } = checkForPublish(Topics.positions, { ...position, lat: 123 });
      expect(payload).toBeUndefined();
      expect(problems).toEqual([expect.stringMatching(/^lat: invalid/)]);
    });

    it('checks once: the checked payload is frozen and encoded without a second check', () => {
      const check = jest.fn(Topics.positions.check!);
      const topic = defineTopic({ ...Topics.positions, check });
      const { payload } = checkForPublish(topic, { ...position, futureField: 'x' } as PositionReportedV1);
      expect(check).toHaveBeenCalledTimes(1);
      expect(Object.isFrozen(payload)).toBe(true);
      expect(JSON.parse(encodeEvent(topic, payload!))).toEqual(position);
      expect(check).toHaveBeenCalledTimes(1);
      // Another topic does not trust it: its own check runs.
      expect(() => encodeEvent(Topics.vehicleSnapshots, payload as never)).toThrow(EventSchemaError);
    });

    it('still checks a payload it did not check', () => {
      const check = jest.fn(Topics.positions.check!);
      const topic = defineTopic({ ...Topics.positions, check });
      encodeEvent(topic, { ...position });
      expect(check).toHaveBeenCalledTimes(1);
    });

    it('checks a copy of a checked payload again, and keeps the mark out of the JSON', () => {
      const check = jest.fn(Topics.positions.check!);
      const topic = defineTopic({ ...Topics.positions, check });
      const { payload } = checkForPublish(topic, { ...position });
      expect(Object.getOwnPropertySymbols(payload)).toHaveLength(1);
      expect(() => encodeEvent(topic, { ...payload!, lat: 123 })).toThrow(/lat: invalid/);
      expect(check).toHaveBeenCalledTimes(2);
      expect(encodeEvent(topic, payload!)).toBe(JSON.stringify(position));
    });
  });
});
