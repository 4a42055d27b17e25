import { AlertFiredV1 } from '@fleet/contracts';
import { webhookBodyOf } from './webhook-payload';

function fired(
  alertTypeId: number,
  data: AlertFiredV1['data'],
  overrides: Partial<AlertFiredV1> = {},
): AlertFiredV1 {
  return {
    eventId: '6f1c1c1e-8f0a-4b8e-9a53-0d7c3f1f2a10',
    recordId: 7,
    configurationId: 11,
    alertTypeId,
    companyId: 3,
    ancestorCompanyIds: [1],
    vehicleId: 42,
    vehicleName: 'Van 42',
    lat: 52.52,
    lng: 13.405,
    course: 270,
    fixTime: '2026-04-28T10:15:30.000Z',
    address: {
      street: 'Unter den Linden 1',
      suburb: 'Mitte',
      state: 'Berlin',
      postcode: '10117',
      country: 'Germany',
    },
    data,
    ...overrides,
  };
}

const parsed = (alert: AlertFiredV1) => JSON.parse(webhookBodyOf(alert)!) as Record<string, unknown>;

describe('webhook payload', () => {
  it('has the spec fields in PascalCase, in order, with the address in parts', () => {
    const body = webhookBodyOf(fired(1, { geofenceName: 'Depot', isExit: false }))!;
    expect(Object.keys(JSON.parse(body))).toEqual([
      'AlertType',
      'VehicleId',
      'VehicleName',
      'Position',
      'Direction',
      'Timestamp',
      'Address',
      'Data',
    ]);
    expect(JSON.parse(body)).toEqual({
      AlertType: 'Geofence',
      VehicleId: 42,
      VehicleName: 'Van 42',
      Position: { Lat: 52.52, Lng: 13.405 },
      Direction: 270,
      Timestamp: '2026-04-28T10:15:30.000Z',
      Address: {
        Street: 'Unter den Linden 1',
        Suburb: 'Mitte',
        State: 'Berlin',
        Postcode: '10117',
        Country: 'Germany',
      },
      Data: { GeofenceName: 'Depot', IsExit: false },
    });
  });

  it.each([
    [1, { geofenceName: 'Depot', isExit: false }, 'Geofence', { GeofenceName: 'Depot', IsExit: false }],
    [2, { geofenceName: 'Depot', isExit: true }, 'Geofence', { GeofenceName: 'Depot', IsExit: true }],
    [5, { isStarted: true }, 'Ignition', { IsStarted: true }],
    [8, { isStarted: false }, 'Ignition', { IsStarted: false }],
    [9, { voltage: 11.4, threshold: 11.8 }, 'LowBattery', { Voltage: 11.4, Threshold: 11.8 }],
    [10, { speed: 97.5, maxSpeed: 90 }, 'ExceedMaximumSpeed', { Speed: 97.5, MaxSpeed: 90 }],
  ])('type %i carries the catalog data', (typeId, data, label, expected) => {
    const body = parsed(fired(typeId, data));
    expect(body.AlertType).toBe(label);
    expect(body.Data).toEqual(expected);
  });

  it.each([3, 12, 13, 14])('type %i (global webhooks only) carries Data null', (typeId) => {
    const body = parsed(fired(typeId, { voltage: 11, threshold: 12 }));
    expect(body.Data).toBeNull();
    expect(typeof body.AlertType).toBe('string');
  });

  it.each([15, 16, 17, 20])('type %i is never delivered: no body', (typeId) => {
    expect(webhookBodyOf(fired(typeId, null))).toBeUndefined();
  });

  it('writes whole decimal values without a decimal point', () => {
    const body = webhookBodyOf(fired(9, { voltage: 12.0, threshold: 11.0 }, { lat: 52.0, lng: 13.0 }))!;
    expect(body).toContain('"Voltage":12,"Threshold":11');
    expect(body).toContain('"Position":{"Lat":52,"Lng":13}');
    expect(body).not.toMatch(/\d\.0[,}]/);
  });

  it('writes the time in UTC with Z, and no address as null', () => {
    const body = parsed(
      fired(5, { isStarted: true }, { fixTime: '2026-04-28T12:15:30+02:00', address: null }),
    );
    expect(body.Timestamp).toBe('2026-04-28T10:15:30.000Z');
    expect(body.Address).toBeNull();
  });

  it('gives these exact bytes for an alert (what the signature covers: field order, no spaces)', () => {
    const alert = fired(10, { speed: 120, maxSpeed: 100 });
    expect(webhookBodyOf(alert)).toBe(
      '{"AlertType":"ExceedMaximumSpeed","VehicleId":42,"VehicleName":"Van 42",' +
        '"Position":{"Lat":52.52,"Lng":13.405},"Direction":270,"Timestamp":"2026-04-28T10:15:30.000Z",' +
        '"Address":{"Street":"Unter den Linden 1","Suburb":"Mitte","State":"Berlin","Postcode":"10117",' +
        '"Country":"Germany"},"Data":{"Speed":120,"MaxSpeed":100}}',
    );
  });
});
