import { decodeAvlData, encodeAvlData } from '@fleet/trackers';
import { SimulatedReport } from './simulated-report';
import { gt06CommandOf, gt06FixOf, teltonikaCommandOf, teltonikaRecordOf } from './tracker-frames';

const report: SimulatedReport = {
  imei: '356307042441013',
  time: Date.parse('2026-11-20T08:15:30.500Z'),
  lat: 52.520_008,
  lng: 13.404_954,
  speedKmh: 47.6,
  course: 359.6,
  altitudeM: 34.4,
  accuracyM: 4,
  hdop: 0.9,
  satellites: 11,
  signal: 4,
  ignition: true,
  motion: true,
  odometerM: 123_456.7,
  engineHours: 10,
  powerV: 13.91,
  batteryLevel: 96,
  fuelLevel: 61.2,
  rpm: 1_850,
  coolantTempC: -4,
  doorLocked: true,
  engineEnabled: false,
  dtcCodes: ['P0301', 'P0171'],
};

describe('a simulated report as a Teltonika FMB sends it', () => {
  it('carries the readings as the IO elements of the FMB parameter list, through the wire and back', () => {
    const [record] = decodeAvlData(
      encodeAvlData({ codec: 0x8e, records: [teltonikaRecordOf(report)] }),
    ).records;
    expect(record).toMatchObject({
      timestamp: new Date('2026-11-20T08:15:30.500Z'),
      lat: 52.520_008,
      lng: 13.404_954,
      speed: 48,
      angle: 0,
      altitude: 34,
      satellites: 11,
    });
    const io = Object.fromEntries(
      [...record.io].map(([id, value]) => [
        id,
        Buffer.isBuffer(value) ? value.toString('latin1') : Number(value),
      ]),
    );
    expect(io).toEqual({
      239: 1,
      240: 1,
      21: 4,
      66: 13_910,
      16: 123_457,
      69: 1,
      182: 9,
      113: 96,
      48: 61,
      36: 1_850,
      32: 252,
      179: 1,
      180: 1,
      281: 'P0301,P0171',
    });
  });

  it('leaves out the readings a vehicle does not have', () => {
    const { fuelLevel: _fuel, rpm: _rpm, coolantTempC: _coolant, dtcCodes: _codes, ...electric } = report;
    const ids = [...teltonikaRecordOf(electric).io.keys()];
    expect(ids.filter((id) => [48, 36, 32, 281].includes(id))).toEqual([]);
  });
});

describe('commands as the simulated devices understand them', () => {
  it.each([
    ['setdigout 1?', { type: 'ignition', on: false }],
    ['setdigout 0?', { type: 'ignition', on: true }],
    ['setdigout ?1', { type: 'doorLock', lock: true }],
    ['setdigout ?0', { type: 'doorLock', lock: false }],
    ['getgps', { type: 'locate' }],
    ['setdigout 11', { type: 'unsupported' }],
    ['cpureset', { type: 'unsupported' }],
  ])('Teltonika: %s', (text, expected) => {
    expect(teltonikaCommandOf('c1', text)).toEqual({ id: 'c1', ...expected });
  });

  it.each([
    ['Relay,1#', { type: 'ignition', on: false }],
    ['relay,0#', { type: 'ignition', on: true }],
    ['WHERE#', { type: 'locate' }],
    ['DYD,000000#', { type: 'unsupported' }],
  ])('GT06: %s', (text, expected) => {
    expect(gt06CommandOf('c1', text)).toEqual({ id: 'c1', ...expected });
  });

  it('GT06 sends whole seconds, the ACC state and the mileage', () => {
    expect(gt06FixOf(report)).toEqual({
      fix: {
        time: new Date('2026-11-20T08:15:30.000Z'),
        satellites: 11,
        lat: 52.520_008,
        lng: 13.404_954,
        speedKmh: 48,
        course: 0,
        fixed: true,
        realtime: true,
      },
      extra: { acc: true, mileageM: 123_457 },
    });
  });
});
