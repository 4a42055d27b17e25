import { CandidateFix, FixFilter, REANCHOR_AFTER } from './fix-filter';

const T0 = Date.parse('2026-11-20T10:00:00Z');
const settings = { maxSpeedKmh: 300 };

/** A fix of vehicle 1, `seconds` after T0, at a point `kmEast` km east of 52.5, 13.4 (≈ 0.01476° a km). */
const fix = (seconds: number, kmEast = 0, extra: Partial<CandidateFix> = {}): CandidateFix => ({
  vehicleId: 1,
  fixTimeMs: T0 + seconds * 1000,
  lat: 52.5,
  lng: 13.4 + kmEast * 0.014_76,
  ...extra,
});

describe('FixFilter', () => {
  let filter: FixFilter;
  const judge = (candidate: CandidateFix) => filter.judge(candidate);

  beforeEach(() => {
    filter = new FixFilter(settings);
  });

  it('accepts a vehicle driving at motorway speed', () => {
    // 1 km every 30 s: 120 km/h.
    for (let step = 0; step < 10; step++) expect(judge(fix(step * 30, step))).toEqual({ accepted: true });
  });

  it('refuses a fix 570 km away ten minutes later, every time it comes back, and keeps the real track', () => {
    expect(judge(fix(0))).toEqual({ accepted: true });
    for (let glitch = 1; glitch <= 4; glitch++) {
      expect(judge(fix(glitch * 300, 570))).toEqual({ accepted: false, reason: 'impossible_speed' });
      expect(judge(fix(glitch * 300 + 10, glitch))).toEqual({ accepted: true });
    }
  });

  it('believes a new place after enough consistent fixes (the first fix it knew was the glitch)', () => {
    expect(judge(fix(0, 570))).toEqual({ accepted: true });
    for (let step = 1; step < REANCHOR_AFTER; step++) {
      expect(judge(fix(step * 10, step * 0.1))).toEqual({ accepted: false, reason: 'impossible_speed' });
    }
    expect(judge(fix(REANCHOR_AFTER * 10, REANCHOR_AFTER * 0.1))).toEqual({ accepted: true });
    expect(judge(fix(REANCHOR_AFTER * 10 + 10, REANCHOR_AFTER * 0.1 + 0.1))).toEqual({ accepted: true });
  });

  it('does not re-anchor on glitches that disagree with one another', () => {
    judge(fix(0));
    for (let step = 1; step <= 6; step++) {
      // Alternately 500 km east and 500 km west: never consistent with the previous suspect.
      expect(judge(fix(step * 10, step % 2 ? 500 : -500))).toEqual({
        accepted: false,
        reason: 'impossible_speed',
      });
    }
  });

  it('tolerates GPS scatter of a standing vehicle', () => {
    judge(fix(0));
    expect(judge(fix(1, 0.08))).toEqual({ accepted: true });
  });

  it('judges a late fix from the buffer against the newest one, by the time between them', () => {
    judge(fix(3600, 60));
    // An hour earlier and 60 km away: 60 km/h, plausible.
    expect(judge(fix(0))).toEqual({ accepted: true });
    // A minute earlier and 300 km away: not.
    expect(judge(fix(3540, 360))).toEqual({ accepted: false, reason: 'impossible_speed' });
  });

  it('a late fix does not become the reference', () => {
    judge(fix(3600, 60));
    judge(fix(0));
    // 61 km from the late fix in one minute would be impossible; from the newest one it is 1 km.
    expect(judge(fix(3660, 61))).toEqual({ accepted: true });
  });

  it.each([
    ['zero_position', fix(10, 0, { lat: 0, lng: 0 })],
    ['invalid_fix', fix(10, 0, { valid: false })],
    ['no_satellites', fix(10, 0, { satellites: 0 })],
  ])('refuses a fix for %s', (reason, candidate) => {
    expect(judge(candidate)).toEqual({ accepted: false, reason });
  });

  it('refuses a (0, 0) fix as the first fix of a vehicle, and does not take it as the reference', () => {
    expect(judge(fix(0, 0, { lat: 0, lng: 0 }))).toEqual({ accepted: false, reason: 'zero_position' });
    expect(judge(fix(10))).toEqual({ accepted: true });
    expect(judge(fix(20, 0.2))).toEqual({ accepted: true });
  });

  it('refuses the same fix time twice', () => {
    judge(fix(10));
    expect(judge(fix(10))).toEqual({ accepted: false, reason: 'duplicate' });
  });

  it('keeps vehicles apart', () => {
    judge(fix(0));
    expect(judge({ ...fix(10, 570), vehicleId: 2 })).toEqual({ accepted: true });
    expect(judge(fix(20, 0.1))).toEqual({ accepted: true });
  });
});
