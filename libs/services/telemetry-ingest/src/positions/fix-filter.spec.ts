import { CandidateFix, FixFilter, REANCHOR_AFTER } from './fix-filter';

const T0 = Date.parse('2026-11-20T10:00:00Z');
const settings = { maxSpeedKmh: 300, settleMs: 30 * 60_000 };

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
    for (let step = 0; step < 10; step++) expect(judge(fix(step * 30, step))).toMatchObject({ accepted: true });
  });

  it('refuses a fix 570 km away ten minutes later, every time it comes back, and keeps the real track', () => {
    expect(judge(fix(0))).toMatchObject({ accepted: true });
    for (let glitch = 1; glitch <= 4; glitch++) {
      expect(judge(fix(glitch * 300, 570))).toEqual({ accepted: false, reason: 'impossible_speed' });
      expect(judge(fix(glitch * 300 + 10, glitch))).toMatchObject({ accepted: true });
    }
  });

  it('believes a new place after enough consistent fixes (the first fix it knew was the glitch)', () => {
    expect(judge(fix(0, 570))).toMatchObject({ accepted: true });
    for (let step = 1; step < REANCHOR_AFTER; step++) {
      expect(judge(fix(step * 10, step * 0.1))).toEqual({ accepted: false, reason: 'impossible_speed' });
    }
    expect(judge(fix(REANCHOR_AFTER * 10, REANCHOR_AFTER * 0.1))).toMatchObject({ accepted: true });
    expect(judge(fix(REANCHOR_AFTER * 10 + 10, REANCHOR_AFTER * 0.1 + 0.1))).toMatchObject({ accepted: true });
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
    expect(judge(fix(1, 0.08))).toMatchObject({ accepted: true });
  });

  it('judges a late fix from the buffer against the newest one, by the time between them', () => {
    judge(fix(3600, 60));
    // An hour earlier and 60 km away: 60 km/h, plausible.
    expect(judge(fix(0))).toMatchObject({ accepted: true });
    // A minute earlier and 300 km away: not.
    expect(judge(fix(3540, 360))).toEqual({ accepted: false, reason: 'impossible_speed' });
  });

  it('a late fix does not become the reference', () => {
    judge(fix(3600, 60));
    judge(fix(0));
    // 61 km from the late fix in one minute would be impossible; from the newest one it is 1 km.
    expect(judge(fix(3660, 61))).toMatchObject({ accepted: true });
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
    expect(judge(fix(10))).toMatchObject({ accepted: true });
    expect(judge(fix(20, 0.2))).toMatchObject({ accepted: true });
  });

  it('refuses the same fix time twice', () => {
    judge(fix(10));
    expect(judge(fix(10))).toEqual({ accepted: false, reason: 'duplicate' });
  });

  it('keeps vehicles apart', () => {
    judge(fix(0));
    expect(judge({ ...fix(10, 570), vehicleId: 2 })).toMatchObject({ accepted: true });
    expect(judge(fix(20, 0.1))).toMatchObject({ accepted: true });
  });

  describe('track provenance (who may take commands: docs/security.md, F1)', () => {
    const ARRIVAL = T0 + 86_400_000;
    const at = (candidate: CandidateFix, minutes: number) => filter.judge(candidate, ARRIVAL + minutes * 60_000);

    it('a fresh track proves nothing until it has been continued for the settling time without conflict', () => {
      expect(at(fix(0), 0)).toEqual({ accepted: true, continued: false, reanchored: false });
      expect(at(fix(30, 1), 10)).toEqual({ accepted: true, continued: false, reanchored: false });
      // 30 minutes after it began: this fix settles the track, the next one continues a settled track.
      expect(at(fix(60, 2), 30)).toEqual({ accepted: true, continued: false, reanchored: false });
      expect(at(fix(90, 3), 31)).toEqual({ accepted: true, continued: true, reanchored: false });
    });

    it("the audit's case: three consistent fixes 880 km away re-anchor, and none of them continues the track", () => {
      filter.restore(1, { fixTimeMs: T0, lat: 52.5, lng: 13.4 });
      expect(at(fix(10, 0.1), 0)).toMatchObject({ accepted: true, continued: true });
      for (let step = 1; step < REANCHOR_AFTER; step++) {
        expect(at(fix(600 + step * 10, 880 + step * 0.1), step)).toEqual({
          accepted: false,
          reason: 'impossible_speed',
        });
      }
      expect(at(fix(600 + REANCHOR_AFTER * 10, 880 + REANCHOR_AFTER * 0.1), 3)).toEqual({
        accepted: true,
        continued: false,
        reanchored: true,
      });
      // The attacker's place is now the track, but an unsettled one: its next fixes prove nothing.
      expect(at(fix(700, 880.5), 4)).toEqual({ accepted: true, continued: false, reanchored: false });
    });

    it('a conflicting fix restarts the settling time of an unsettled track', () => {
      expect(at(fix(0), 0)).toMatchObject({ continued: false });
      expect(at(fix(30, 500), 29)).toEqual({ accepted: false, reason: 'impossible_speed' });
      expect(at(fix(60, 0.5), 31)).toEqual({ accepted: true, continued: false, reanchored: false });
      expect(at(fix(90, 1), 58)).toMatchObject({ continued: false });
      expect(at(fix(120, 1.5), 59)).toMatchObject({ continued: false });
      expect(at(fix(150, 2), 60)).toMatchObject({ continued: true });
    });

    it('hands changed tracks to the checkpoint once, and a restored track is not overwritten', () => {
      filter.restore(1, { fixTimeMs: T0, lat: 52.5, lng: 13.4 });
      filter.restore(1, { fixTimeMs: T0 + 1, lat: 10, lng: 10, unsettledSince: ARRIVAL });
      expect(filter.takeChanged().size).toBe(0);
      at(fix(10, 0.1), 0);
      expect(filter.takeChanged()).toEqual(
        new Map([[1, { fixTimeMs: T0 + 10_000, lat: 52.5, lng: 13.4 + 0.1 * 0.014_76, unsettledSince: undefined }]]),
      );
      expect(filter.takeChanged().size).toBe(0);
    });
  });
});
