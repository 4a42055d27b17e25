import { AvlRecord, IoValue } from '@fleet/trackers';
import { teltonikaReport } from './teltonika-readings';

const record = (io: [number, IoValue][], change: Partial<AvlRecord> = {}): AvlRecord => ({
  timestamp: new Date('2026-11-20T08:00:00Z'),
  priority: 0,
  lat: 54.6872,
  lng: 25.2797,
  altitude: 112,
  angle: 360,
  satellites: 7,
  speed: 62,
  eventIoId: 0,
  io: new Map(io),
  ...change,
});

describe('Teltonika IO elements into the position readings', () => {
  it('maps the documented ids into the platform units', () => {
    const report = teltonikaReport(
      '356307042441013',
      record([
        [239, 1],
        [240, 0],
        [21, 3],
        [66, 12_345],
        [67, 4_010],
        [16, 98_765],
        [182, 12],
        [113, 80],
        [36, 2_100],
        [32, 0xfb],
        [48, 40],
        [256, Buffer.from('WDB1234567890ABCD\0', 'latin1')],
        [281, Buffer.from('p0300, P0171 ;junk', 'latin1')],
        [253, 2],
        [252, 1],
        [9_999, 5],
      ]),
    );
    expect(report).toEqual({
      deviceId: '356307042441013',
      fixTime: new Date('2026-11-20T08:00:00Z'),
      lat: 54.6872,
      lng: 25.2797,
      readings: {
        speedKmh: 62,
        course: 0,
        altitudeM: 112,
        satellites: 7,
        ignition: true,
        motion: false,
        signal: 3,
        powerV: 12.345,
        deviceBatteryV: 4.01,
        odometerM: 98_765,
        hdop: 1.2,
        batteryLevel: 80,
        rpm: 2_100,
        coolantTempC: -5,
        fuelLevel: 40,
        vin: 'WDB1234567890ABCD',
        dtcCodes: ['P0300', 'P0171'],
        deviceEvents: ['harshBraking', 'powerCut'],
      },
    });
  });

  it('reads the door and engine state from the outputs as the profile wires them', () => {
    const io: [number, IoValue][] = [
      [179, 1],
      [180, 0],
    ];
    expect(
      teltonikaReport('1', record(io), { immobiliserOutput: 1, doorLockOutput: 2 }).readings,
    ).toMatchObject({
      engineEnabled: false,
      doorLocked: false,
    });
    const unwired = teltonikaReport('1', record(io)).readings;
    expect([unwired.engineEnabled, unwired.doorLocked]).toEqual([undefined, undefined]);
  });

  it('marks a fix invalid when the GNSS status says there is none', () => {
    expect(teltonikaReport('1', record([[69, 2]])).valid).toBe(false);
    expect(teltonikaReport('1', record([[69, 1]])).valid).toBe(true);
    expect(teltonikaReport('1', record([])).valid).toBeUndefined();
  });

  it('ignores values outside their documented range', () => {
    const readings = teltonikaReport(
      '1',
      record([
        [21, 9],
        [113, 250],
        [48, 101],
      ]),
    ).readings;
    expect([readings.signal, readings.batteryLevel, readings.fuelLevel]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});
