import { decodeEvent, encodeEvent, EventSchemaError } from './codec';
import { Topics } from '../topics';
import { PositionReportedV1 } from '../events/position-reported.v1';

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
    expect(decoded).toBeInstanceOf(PositionReportedV1);
    expect({ ...decoded }).toEqual(position);
  });

  it('refuses to encode a payload that breaks the schema, naming the field', () => {
    expect(() => encodeEvent(Topics.positions, { ...position, lat: 123 })).toThrow(
      /lat: lat must be a latitude/,
    );
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
});
