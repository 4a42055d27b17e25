import {
  formatDotNet,
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
});
