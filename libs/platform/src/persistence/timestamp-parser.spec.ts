import { types } from 'pg';
import { dataSourceOptions } from './service-schema';
import { fastTimestampTypes, parseTimestamptz } from './timestamp-parser';

const library = types.getTypeParser(types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date | number;

const valueOf = (parsed: Date | number | null) => (parsed instanceof Date ? parsed.getTime() : parsed);

/** A seeded LCG, so that a failure repeats. */
function randomFrom(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % below;
  };
}

const two = (value: number) => String(value).padStart(2, '0');

describe('parseTimestamptz', () => {
  it('reads what PostgreSQL writes, to the millisecond', () => {
    expect(parseTimestamptz('2026-11-23 15:44:01.123456+00')).toEqual(new Date('2026-11-23T15:44:01.123Z'));
    expect(parseTimestamptz('2026-11-23 15:44:01+00')).toEqual(new Date('2026-11-23T15:44:01.000Z'));
    expect(parseTimestamptz('2024-03-31 03:00:00.5+02')).toEqual(new Date('2024-03-31T01:00:00.500Z'));
    expect(parseTimestamptz('2024-01-01 00:00:00-05:30')).toEqual(new Date('2024-01-01T05:30:00.000Z'));
    expect(parseTimestamptz('1890-01-01 00:00:00+00:53:28')).toEqual(new Date('1889-12-31T23:06:32.000Z'));
  });

  it('agrees with postgres-date on random timestamps, fractions and offsets', () => {
    const random = randomFrom(7);
    for (let sample = 0; sample < 20_000; sample++) {
      const date = `${1000 + random(9000)}-${two(1 + random(12))}-${two(1 + random(31))}`;
      const time = `${two(random(24))}:${two(random(60))}:${two(random(60))}`;
      const fractionDigits = random(7);
      const fraction = fractionDigits
        ? `.${String(random(10 ** fractionDigits)).padStart(fractionDigits, '0')}`
        : '';
      const sign = random(2) ? '+' : '-';
      const offset = [
        `${sign}${two(random(15))}`,
        `${sign}${two(random(15))}:${two(random(60))}`,
        `${sign}${two(random(15))}:${two(random(60))}:${two(random(60))}`,
      ][random(3)];
      const text = `${date} ${time}${fraction}${offset}`;
      expect([text, valueOf(parseTimestamptz(text))]).toEqual([text, valueOf(library(text))]);
    }
  });

  it.each([
    ['infinity', 'infinity'],
    ['minus infinity', '-infinity'],
    ['a BC date', '0044-03-15 12:00:00+00 BC'],
    ['a year below 100', '0099-01-01 00:00:00+00'],
    ['a year below 1000', '0999-12-31 23:59:59.999+00'],
    ['a five-digit year', '10000-01-01 00:00:00+00'],
    ['no offset', '2026-11-23 15:44:01.123'],
    ['seven fraction digits', '2026-11-23 15:44:01.1234567+00'],
    ['an empty fraction', '2026-11-23 15:44:01.+00'],
    ['Z', '2026-11-23 15:44:01Z'],
    ['an offset without a colon', '2026-11-23 15:44:01+0530'],
    ['a letter in the minutes of the offset', '2026-11-23 15:44:01+05:3x'],
    ['a date only', '2026-11-23'],
    ['garbage', 'not a time'],
  ])('answers %s as postgres-date does (its own parser takes them)', (_, text) => {
    expect(valueOf(parseTimestamptz(text))).toEqual(valueOf(library(text)));
  });

  it('is what the pool is given for timestamptz in text, and only that', () => {
    expect(fastTimestampTypes.getTypeParser(types.builtins.TIMESTAMPTZ, 'text')).toBe(parseTimestamptz);
    expect(fastTimestampTypes.getTypeParser(types.builtins.TIMESTAMPTZ)).toBe(parseTimestamptz);
    expect(fastTimestampTypes.getTypeParser(types.builtins.TIMESTAMP, 'text')).toBe(
      types.getTypeParser(types.builtins.TIMESTAMP, 'text'),
    );
    expect(fastTimestampTypes.getTypeParser(types.builtins.TIMESTAMPTZ, 'binary')).toBe(
      types.getTypeParser(types.builtins.TIMESTAMPTZ, 'binary'),
    );
  });

  it("is the timestamp parser of every service's pool", () => {
    const options = dataSourceOptions(
      { schema: 'example', entities: [], migrations: [] },
      { url: 'postgres://127.0.0.1/example', migrateOnStart: false, poolSize: 4 },
      'example',
    );
    expect((options as { extra?: { types?: unknown } }).extra?.types).toBe(fastTimestampTypes);
  });
});
