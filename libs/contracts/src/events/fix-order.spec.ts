import { fixOrderMs } from './position-reported.v1';

describe('fixOrderMs: a position’s place in its vehicle’s order', () => {
  it('is the fix time of a fix taken before it arrived', () => {
    expect(fixOrderMs({ fixTime: '2026-03-01T10:00:00.000Z', receivedAt: '2026-03-01T10:00:02.500Z' })).toBe(
      Date.parse('2026-03-01T10:00:00.000Z'),
    );
  });

  it('is the arrival of a fix a clock ahead put after it, so it never ranks later than its arrival', () => {
    expect(fixOrderMs({ fixTime: '2026-03-01T10:00:25.000Z', receivedAt: '2026-03-01T10:00:00.123Z' })).toBe(
      Date.parse('2026-03-01T10:00:00.123Z'),
    );
  });

  it('reads instants in other forms as Date does', () => {
    expect(fixOrderMs({ fixTime: '2026-03-01T12:00:00+02:00', receivedAt: '2026-03-01T10:00:01Z' })).toBe(
      Date.parse('2026-03-01T10:00:00Z'),
    );
  });
});
