import {
  formatDotNet,
  wallClock,
  userTimeWithOffset,
  userTimeWithoutOffset,
  utcWithoutOffset,
  utcWithZ,
} from './zoned-time';

describe('zoned time values', () => {
  // Europe/Berlin switches from CET (+01:00) to CEST (+02:00) at 2024-03-31 01:00 UTC.
  const beforeDst = new Date('2024-03-31T00:30:00Z');
  const afterDst = new Date('2024-03-31T01:30:00Z');

  it('writes UTC with and without Z', () => {
    expect(utcWithoutOffset(beforeDst)).toBe('2024-03-31T00:30:00');
    expect(utcWithZ(afterDst)).toBe('2024-03-31T01:30:00Z');
    expect(utcWithZ(new Date('2024-01-02T03:04:05.678Z'))).toBe('2024-01-02T03:04:05.678Z');
  });

  it('follows the DST change of the user zone', () => {
    expect(userTimeWithOffset(beforeDst, 'Europe/Berlin')).toBe('2024-03-31T01:30:00+01:00');
    expect(userTimeWithOffset(afterDst, 'Europe/Berlin')).toBe('2024-03-31T03:30:00+02:00');
    expect(userTimeWithoutOffset(afterDst, 'Europe/Berlin')).toBe('2024-03-31T03:30:00');
  });

  it('switches offset exactly at the transition instant (offsets are cached per quarter hour)', () => {
    expect(userTimeWithOffset(new Date('2024-03-31T00:59:59Z'), 'Europe/Berlin')).toBe(
      '2024-03-31T01:59:59+01:00',
    );
    expect(userTimeWithOffset(new Date('2024-03-31T01:00:00Z'), 'Europe/Berlin')).toBe(
      '2024-03-31T03:00:00+02:00',
    );
    expect(userTimeWithOffset(new Date('2024-10-27T00:59:59Z'), 'Europe/Berlin')).toBe(
      '2024-10-27T02:59:59+02:00',
    );
    expect(userTimeWithOffset(new Date('2024-10-27T01:00:00Z'), 'Europe/Berlin')).toBe(
      '2024-10-27T02:00:00+01:00',
    );
    expect(userTimeWithOffset(new Date('2024-01-01T00:00:00Z'), 'Asia/Kathmandu')).toBe(
      '2024-01-01T05:45:00+05:45',
    );
  });

  it('writes negative and fractional-hour offsets', () => {
    expect(userTimeWithOffset(beforeDst, 'America/New_York')).toBe('2024-03-30T20:30:00-04:00');
    expect(userTimeWithOffset(beforeDst, 'Asia/Kolkata')).toBe('2024-03-31T06:00:00+05:30');
  });

  it('formats .NET display patterns in the user zone', () => {
    expect(formatDotNet(afterDst, 'Europe/Berlin', 'dd/MM/yyyy HH:mm:ss')).toBe('31/03/2024 03:30:00');
    expect(formatDotNet(new Date('2024-07-04T17:05:09Z'), 'America/New_York', 'MM/dd/yyyy hh:mm tt')).toBe(
      '07/04/2024 01:05 PM',
    );
    expect(formatDotNet(new Date('2024-07-04T17:05:09Z'), 'UTC', "dddd, d MMMM yy 'at' H\\h")).toBe(
      'Thursday, 4 July 24 at 17h',
    );
  });

  it('writes the same wall clock as the display formatter, over many instants and zones', () => {
    const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe'];
    for (let step = 0; step < 2_000; step += 1) {
      // Whole seconds across 2023–2025, DST changes included; the display pattern has no milliseconds.
      const instant = new Date(Date.UTC(2023, 0, 1) + step * 47_303_000);
      for (const zone of zones) {
        expect(userTimeWithoutOffset(instant, zone)).toBe(
          formatDotNet(instant, zone, "yyyy-MM-dd'T'HH:mm:ss"),
        );
      }
    }
  });

  it('keeps milliseconds in user times only when there are some', () => {
    expect(userTimeWithoutOffset(new Date('2024-07-04T17:05:09.050Z'), 'Asia/Kolkata')).toBe(
      '2024-07-04T22:35:09.050',
    );
    expect(userTimeWithOffset(new Date('2024-07-04T17:05:09.000Z'), 'Asia/Kolkata')).toBe(
      '2024-07-04T22:35:09+05:30',
    );
  });

  it('reads the same calendar fields as Date, before 1970 and after 2100 too', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let step = 0; step < 5_000; step += 1) {
      // Anywhere from 1900 to 2200, millisecond precision.
      const instant = new Date(Math.floor(-2_208_988_800_000 + random() * 9_467_280_000_000));
      expect(wallClock(instant, 'UTC')).toEqual({
        year: instant.getUTCFullYear(),
        month: instant.getUTCMonth() + 1,
        day: instant.getUTCDate(),
        hour: instant.getUTCHours(),
        minute: instant.getUTCMinutes(),
        second: instant.getUTCSeconds(),
        millisecond: instant.getUTCMilliseconds(),
        weekday: instant.getUTCDay(),
        offsetMinutes: 0,
      });
    }
  });

  it('reuses a compiled display pattern without mixing up patterns', () => {
    const instant = new Date('2024-02-29T23:59:58.123Z');
    expect(formatDotNet(instant, 'UTC', 'yyyy-MM-dd')).toBe('2024-02-29');
    expect(formatDotNet(instant, 'UTC', 'ddd d MMM, h:mm:ss.fff tt')).toBe('Thu 29 Feb, 11:59:58.123 PM');
    expect(formatDotNet(instant, 'UTC', 'yyyy-MM-dd')).toBe('2024-02-29');
    expect(formatDotNet(instant, 'Asia/Kolkata', 'dd.MM.yy HH:mm zzz')).toBe('01.03.24 05:29 +05:30');
  });
});
