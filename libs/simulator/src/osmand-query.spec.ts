import { toOsmAndQuery } from './osmand-query';
import { SimulatedReport } from './simulated-report';

const report: SimulatedReport = {
  imei: '356938035643809',
  time: Date.UTC(2026, 0, 5, 8, 0, 0, 700),
  lat: 52.520001,
  lng: 13.404954,
  speedKmh: 92.6,
  course: 90,
  altitudeM: 41.2,
  accuracyM: 4.5,
  hdop: 0.9,
  satellites: 9,
  signal: 4,
  ignition: true,
  motion: true,
  odometerM: 1523.4,
  engineHours: 12.5,
  powerV: 14.1,
  batteryLevel: 87.5,
  fuelLevel: 61.5,
  rpm: 2150,
  coolantTempC: 91.5,
  doorLocked: false,
  engineEnabled: true,
  driver: 'DRV 0001',
  dtcCodes: ['P0300', 'P0171'],
};

describe('toOsmAndQuery', () => {
  it('sends speed in knots, the time in whole Unix seconds and every reading under its OsmAnd name', () => {
    const fields = Object.fromEntries(new URLSearchParams(toOsmAndQuery(report)));
    expect(fields).toEqual({
      id: '356938035643809',
      timestamp: '1767600000',
      lat: '52.520001',
      lon: '13.404954',
      speed: '50',
      bearing: '90',
      altitude: '41.2',
      accuracy: '4.5',
      hdop: '0.9',
      sat: '9',
      rssi: '4',
      batt: '87.5',
      ignition: 'true',
      motion: 'true',
      odometer: '1523.4',
      hours: '12.5',
      power: '14.1',
      fuel: '61.5',
      rpm: '2150',
      coolantTemp: '91.5',
      lock: 'false',
      engine: 'true',
      driver: 'DRV 0001',
      dtcs: 'P0300,P0171',
    });
  });

  it("sends an electric van's charging, charger power and range, and no fuel or engine readings", () => {
    const fields = new URLSearchParams(
      toOsmAndQuery({
        ...report,
        charging: true,
        chargerPowerKw: 11,
        batteryRangeKm: 280,
        fuelLevel: undefined,
        rpm: undefined,
        coolantTempC: undefined,
      }),
    );
    expect([fields.get('charge'), fields.get('chargerpower'), fields.get('range')]).toEqual([
      'true',
      '11',
      '280',
    ]);
    expect(['fuel', 'rpm', 'coolantTemp'].filter((name) => fields.has(name))).toEqual([]);
  });

  it('acknowledges a command with cmdid and cmdstatus, and only then sends them', () => {
    const id = '0b7e4a52-3c1d-4f5e-9a6b-7c8d9e0f1a2b';
    const fields = new URLSearchParams(toOsmAndQuery({ ...report, commandId: id, commandStatus: 'ok' }));
    expect([fields.get('cmdid'), fields.get('cmdstatus')]).toEqual([id, 'ok']);
    const plain = new URLSearchParams(toOsmAndQuery(report));
    expect(['cmdid', 'cmdstatus'].filter((name) => plain.has(name))).toEqual([]);
  });

  it('leaves out readings the vehicle does not have', () => {
    const fields = new URLSearchParams(toOsmAndQuery({ ...report, driver: undefined, dtcCodes: undefined }));
    expect(fields.has('driver')).toBe(false);
    expect(fields.has('dtcs')).toBe(false);
  });
});
