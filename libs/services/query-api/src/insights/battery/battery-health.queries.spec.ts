import { restingRanges } from './battery-health.queries';

describe('restingRanges', () => {
  const now = new Date('2026-11-27T05:37:12Z');
  const from = new Date('2026-10-28T05:37:12Z');

  it('reads the whole hours inside the window from the hour rows in a whole-hour zone', () => {
    expect(restingRanges(from, now, 'Europe/Berlin')).toEqual({
      hoursFrom: new Date('2026-10-28T06:00:00Z'),
      hoursTo: new Date('2026-11-27T05:00:00Z'),
    });
    expect(restingRanges(from, now, 'UTC').hoursTo).toEqual(new Date('2026-11-27T05:00:00Z'));
  });

  it('keeps the window edges on the quarter rows when it starts or ends on a whole hour', () => {
    const onTheHour = restingRanges(
      new Date('2026-10-28T05:00:00Z'),
      new Date('2026-11-27T05:00:00Z'),
      'UTC',
    );
    expect(onTheHour).toEqual({
      hoursFrom: new Date('2026-10-28T05:00:00Z'),
      hoursTo: new Date('2026-11-27T05:00:00Z'),
    });
  });

  it.each(['Asia/Kolkata', 'Asia/Kathmandu', 'America/St_Johns', 'Australia/Adelaide'])(
    'reads only quarter rows in %s, whose midnight is not on a whole UTC hour',
    (zone) => {
      expect(restingRanges(from, now, zone)).toEqual({ hoursFrom: now, hoursTo: now });
    },
  );

  it('reads only quarter rows when the zone leaves a whole-hour offset within the window', () => {
    // Lord Howe Island: +10:30 in its winter, +11 from the first Sunday of October.
    const window = { from: new Date('2026-09-20T00:00:00Z'), now: new Date('2026-10-19T00:00:00Z') };
    expect(restingRanges(window.from, window.now, 'Australia/Lord_Howe')).toEqual({
      hoursFrom: window.now,
      hoursTo: window.now,
    });
    // After the change the whole window is at +11.
    const later = { from: new Date('2026-10-20T00:00:00Z'), now: new Date('2026-11-19T00:00:00Z') };
    expect(restingRanges(later.from, later.now, 'Australia/Lord_Howe').hoursTo).toEqual(later.now);
  });

  it('has no hour range in a window shorter than an hour', () => {
    const start = new Date('2026-11-27T05:10:00Z');
    expect(restingRanges(start, new Date('2026-11-27T05:55:00Z'), 'UTC')).toEqual({
      hoursFrom: new Date('2026-11-27T05:55:00Z'),
      hoursTo: new Date('2026-11-27T05:55:00Z'),
    });
  });
});
