import { utcDayOf, utcInstantOf } from './record-day';

describe('the dates of the record routes', () => {
  it.each([
    ['2026-04-28', '2026-04-28'],
    ['2026-04-28T23:59:59Z', '2026-04-28'],
    ['2026-04-29T01:30:00+02:00', '2026-04-28'],
    ['2026-04-28T22:30:00-02:00', '2026-04-29'],
    ['2026-04-28 12:00:00', '2026-04-28'],
  ])('%p names the UTC day %s', (text, day) => {
    const { from, to } = utcDayOf('date', text);
    expect(from.toISOString()).toBe(`${day}T00:00:00.000Z`);
    expect(to.getTime() - from.getTime()).toBe(86_400_000);
  });

  it('refuses what is no date, or no real one, naming the field', () => {
    expect(() => utcDayOf('date', 'today')).toThrow(/^date: "today" is not a date/);
    expect(() => utcDayOf('date', '2026-02-29')).toThrow(/^date: "2026-02-29" is not a valid date/);
    expect(() => utcInstantOf('from', '')).toThrow(/^from: /);
    expect(utcInstantOf('from', '2026-04-28 10:00').toISOString()).toBe('2026-04-28T10:00:00.000Z');
  });
});
