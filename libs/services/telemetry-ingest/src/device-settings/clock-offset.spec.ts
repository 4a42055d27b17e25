import { applyClockOffset } from './clock-offset';

describe('applyClockOffset', () => {
  const fix = new Date('2026-04-28T12:00:00.000Z');

  it('adds the offset: a device reporting UTC+2 local time as UTC gets -7200', () => {
    expect(applyClockOffset(fix, -7200).toISOString()).toBe('2026-04-28T10:00:00.000Z');
    expect(applyClockOffset(fix, 3600).toISOString()).toBe('2026-04-28T13:00:00.000Z');
  });

  it('corrects a GPS week-number rollover (1024 weeks)', () => {
    const rolledOver = new Date('2006-09-12T12:00:00.000Z');
    expect(applyClockOffset(rolledOver, 1024 * 7 * 86_400).toISOString()).toBe('2026-04-28T12:00:00.000Z');
  });

  it('leaves the time as it is without an offset', () => {
    expect(applyClockOffset(fix, 0)).toBe(fix);
  });

  it('holds a result beyond the representable dates at their edge, never an invalid date', () => {
    const last = new Date(8.64e15);
    expect(applyClockOffset(last, 86_400).getTime()).toBe(8.64e15);
    expect(applyClockOffset(new Date(-8.64e15), -86_400).getTime()).toBe(-8.64e15);
  });
});
