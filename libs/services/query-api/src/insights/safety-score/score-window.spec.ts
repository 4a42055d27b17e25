import { localMidnight, resolveScoreWindow, ScoreIntervalType, ScoreWindowError } from './score-window';

const iso = (window: { start: Date; finish: Date }) => [
  window.start.toISOString(),
  window.finish.toISOString(),
];
const now = new Date('2026-11-24T15:30:00Z');

describe('resolveScoreWindow', () => {
  it('takes an instant range as given, or the 24 hours before its end', () => {
    const start = new Date('2026-11-20T08:00:00Z');
    const finish = new Date('2026-11-20T17:45:00Z');
    expect(iso(resolveScoreWindow({ intervalType: 1, start, finish, timeZone: 'UTC', now }))).toEqual([
      '2026-11-20T08:00:00.000Z',
      '2026-11-20T17:45:00.000Z',
    ]);
    expect(iso(resolveScoreWindow({ intervalType: 1, timeZone: 'UTC', now }))).toEqual([
      '2026-11-23T15:30:00.000Z',
      '2026-11-24T15:30:00.000Z',
    ]);
  });

  it.each([
    [ScoreIntervalType.Day, '2026-11-24T05:00:00.000Z', '2026-11-25T05:00:00.000Z'],
    [ScoreIntervalType.ThreeDays, '2026-11-22T05:00:00.000Z', '2026-11-25T05:00:00.000Z'],
    [ScoreIntervalType.Week, '2026-11-18T05:00:00.000Z', '2026-11-25T05:00:00.000Z'],
  ])('preset %i: whole local days up to the end of today (New York)', (intervalType, start, finish) => {
    expect(iso(resolveScoreWindow({ intervalType, timeZone: 'America/New_York', now }))).toEqual([
      start,
      finish,
    ]);
  });

  it('ends a preset with the local day of finish, and starts it at a given start', () => {
    const finish = new Date('2026-11-10T23:30:00Z'); // 11 November 00:30 in Paris
    expect(iso(resolveScoreWindow({ intervalType: 3, finish, timeZone: 'Europe/Paris', now }))).toEqual([
      '2026-11-08T23:00:00.000Z',
      '2026-11-11T23:00:00.000Z',
    ]);
    const start = new Date('2026-11-03T12:00:00Z');
    expect(iso(resolveScoreWindow({ intervalType: 4, start, timeZone: 'Europe/Paris', now }))).toEqual([
      '2026-11-03T12:00:00.000Z',
      '2026-11-09T23:00:00.000Z',
    ]);
  });

  it('counts local days across a daylight-saving change (a 23-hour day)', () => {
    const finish = new Date('2026-03-29T12:00:00Z'); // Europe moves to summer time that night
    const window = resolveScoreWindow({ intervalType: 2, finish, timeZone: 'Europe/Berlin', now });
    expect(iso(window)).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
  });

  it('refuses a finish before the start and a window over a year', () => {
    const start = new Date('2026-11-20T08:00:00Z');
    expect(() =>
      resolveScoreWindow({
        intervalType: 1,
        start,
        finish: new Date('2026-11-20T07:59:59Z'),
        timeZone: 'UTC',
        now,
      }),
    ).toThrow(ScoreWindowError);
    expect(() =>
      resolveScoreWindow({
        intervalType: 1,
        start: new Date('2025-11-01T00:00:00Z'),
        finish: start,
        timeZone: 'UTC',
        now,
      }),
    ).toThrow('at most 366 days');
    expect(
      resolveScoreWindow({ intervalType: 1, start, finish: start, timeZone: 'UTC', now }).finish,
    ).toEqual(start);
  });
});

describe('localMidnight', () => {
  it('finds the midnight of a day in a zone with a half-hour offset', () => {
    expect(localMidnight(new Date('2026-11-24T20:00:00Z'), 'Asia/Kolkata').toISOString()).toBe(
      '2026-11-24T18:30:00.000Z',
    );
  });
});
