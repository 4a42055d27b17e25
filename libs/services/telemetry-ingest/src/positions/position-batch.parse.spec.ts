import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { PositionBatchDto } from './position-batch.dto';
import { parseBatch } from './position-batch.parse';

const good = {
  deviceId: '860000000000001',
  timestamp: '2026-03-01T10:00:00Z',
  lat: 52.5,
  lon: 13.4,
  speedKmh: 50,
  course: 90,
  fuelLevel: 40,
  dtcCodes: ['P0300'],
};

const variants: Record<string, unknown[]> = {
  deviceId: ['', 'x'.repeat(65), 5, undefined],
  timestamp: [
    '2026-03-01',
    'soon',
    1700000000,
    undefined,
    '2026-03-01T10:00:00.000Z',
    '2026-02-30T10:00:00.000Z',
    '2024-02-29T23:59:59.999Z',
    '0999-03-01T10:00:00.000Z',
  ],
  lat: [91, '52.5', null, undefined, -90, 1e-7, 0, -0.5],
  lon: [-181, '13', undefined, 180, -1e-7, Infinity, NaN],
  speedKmh: [-1, '50', null],
  course: [360, 1.5],
  fuelLevel: [101, 'full'],
  ignition: [true, 'yes'],
  dtcCodes: [[1], 'P0300'],
  signal: [6, 3],
  rpm: [4500.5, 0, -1, '3000', Infinity],
  coolantTempC: [112, -20, 'hot', NaN, null],
};

const byDto = (body: unknown) =>
  validateSync(plainToInstance(PositionBatchDto, body) as object, {
    whitelist: true,
    forbidUnknownValues: true,
  }).length === 0;
const byParser = (body: unknown) => {
  try {
    parseBatch(body);
    return true;
  } catch {
    return false;
  }
};

describe('parseBatch', () => {
  it('turns positions into reports with readings under the contract names, dropping unknown fields', () => {
    const [report] = parseBatch({ positions: [{ ...good, extra: 1 }] });
    expect(report).toEqual({
      deviceId: '860000000000001',
      fixTime: new Date('2026-03-01T10:00:00Z'),
      lat: 52.5,
      lng: 13.4,
      readings: { speedKmh: 50, course: 90, fuelLevel: 40, dtcCodes: ['P0300'] },
    });
  });

  it('takes the engine readings under their contract names, rpm and coolantTempC', () => {
    const [report] = parseBatch({ positions: [{ ...good, rpm: 4100, coolantTempC: 108.5 }] });
    expect(report.readings).toMatchObject({ rpm: 4100, coolantTempC: 108.5 });
    expect(() => parseBatch({ positions: [{ ...good, rpm: -1, coolantTempC: 'hot' }] })).toThrow(
      expect.objectContaining({
        status: 422,
        message: expect.stringMatching(/positions\[0\]\.rpm.*positions\[0\]\.coolantTempC/),
      }),
    );
  });

  it('names every bad field with its position, as a 422', () => {
    expect(() => parseBatch({ positions: [good, { ...good, lat: 91, fuelLevel: 'full' }] })).toThrow(
      expect.objectContaining({
        status: 422,
        message: expect.stringMatching(/positions\[1\]\.lat.*positions\[1\]\.fuelLevel/),
      }),
    );
    expect(() => parseBatch({ positions: [] })).toThrow(/1 to 1000/);
    expect(() => parseBatch([good])).toThrow(/body/);
  });

  it('accepts and refuses exactly what the DTO declares', () => {
    expect(byDto({ positions: [good] })).toBe(true);
    for (const [field, values] of Object.entries(variants)) {
      for (const value of values) {
        const position: Record<string, unknown> = { ...good, [field]: value };
        if (value === undefined) delete position[field];
        const body = { positions: [good, position] };
        expect({ field, value, accepted: byParser(body) }).toEqual({ field, value, accepted: byDto(body) });
      }
    }
  });
});
