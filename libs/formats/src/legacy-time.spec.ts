import { readLegacyTime } from './legacy-time';

describe('readLegacyTime: the date parameters of the V1 routes', () => {
  it.each([
    ['2026-04-28', 'UTC', '2026-04-28T00:00:00.000Z'],
    ['2026-04-28 10:15', 'UTC', '2026-04-28T10:15:00.000Z'],
    ['2026-04-28T10:15:30.5', 'UTC', '2026-04-28T10:15:30.500Z'],
    ['2026-04-28 10:15:00', 'Europe/Berlin', '2026-04-28T08:15:00.000Z'],
    ['2026-04-28T10:15:00+02:00', 'America/New_York', '2026-04-28T08:15:00.000Z'],
    ['2026-04-28T10:15:00Z', 'Europe/Berlin', '2026-04-28T10:15:00.000Z'],
    [' 2026-04-28 ', 'UTC', '2026-04-28T00:00:00.000Z'],
  ])('reads %p in %s as %s', (text, zone, iso) => {
    expect((readLegacyTime(text, zone) as Date).toISOString()).toBe(iso);
  });

  it.each(['2026-02-30', '2026-04-28 24:00:00', '2026-13-01', '2026-04-28 10:60'])(
    'calls the well-formed but impossible %p impossible',
    (text) => {
      expect(readLegacyTime(text, 'UTC')).toBe('impossible');
    },
  );

  it.each(['yesterday', '', '28/04/2026', '2026-04-28T10:00:00+25:99x', '20260428T100000Z'])(
    'does not read %p',
    (text) => {
      expect(readLegacyTime(text, 'UTC')).toBeUndefined();
    },
  );
});
