import { legacyRangeOf, parseLegacyTime, timeRangeOf } from './time-range';

describe('time ranges of the history routes', () => {
  it('defaults to the 24 hours before now, and refuses reversed or too long ranges with 422', () => {
    const now = new Date('2026-05-01T12:00:00Z');
    expect(timeRangeOf(undefined, undefined, now)).toEqual({
      from: new Date('2026-04-30T12:00:00Z'),
      to: now,
    });
    expect(() => timeRangeOf('2026-05-01T12:00:00Z', '2026-05-01T11:00:00Z')).toThrow(
      /from: must be before to/,
    );
    expect(() => timeRangeOf('2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z')).toThrow(/at most 31 days/);
  });

  it('reads V1 wall-clock values in the given zone, across a DST change', () => {
    expect(parseLegacyTime('from', '2026-03-29 01:30:00', 'Europe/Berlin')).toEqual(
      new Date('2026-03-29T00:30:00Z'),
    );
    expect(parseLegacyTime('from', '2026-03-29 03:30:00', 'Europe/Berlin')).toEqual(
      new Date('2026-03-29T01:30:00Z'),
    );
    expect(parseLegacyTime('from', '2026-07-01', 'America/New_York')).toEqual(
      new Date('2026-07-01T04:00:00Z'),
    );
    expect(parseLegacyTime('to', '2026-07-01T10:00:00+02:00', 'UTC')).toEqual(
      new Date('2026-07-01T08:00:00Z'),
    );
  });

  it('names the field of an unparsable or impossible date', () => {
    expect(() => parseLegacyTime('from', 'yesterday', 'UTC')).toThrow(/from: "yesterday" is not a date/);
    expect(() => parseLegacyTime('to', '2026-02-30 10:00:00', 'UTC')).toThrow(
      /to: "2026-02-30 10:00:00" is not a valid date/,
    );
    expect(() => legacyRangeOf('2026-01-02', '2026-01-01', 'UTC')).toThrow(/from: must be before to/);
  });
});
