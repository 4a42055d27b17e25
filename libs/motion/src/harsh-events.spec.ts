import { HARSH_EVENT_MAX_GAP_MS, KinematicSample, longitudinalAccelerationG } from './harsh-events';

const sample = (timeMs: number, speedKmh?: number): KinematicSample => ({ timeMs, speedKmh });

describe('longitudinalAccelerationG', () => {
  // Expected values worked by hand: Δv (m/s) / Δt (s) / 9.80665.
  it.each([
    ['braking 72 → 36 km/h in 2 s', sample(0, 72), sample(2_000, 36), -0.5099],
    ['accelerating 0 → 36 km/h in 5 s', sample(0, 0), sample(5_000, 36), 0.2039],
    ['accelerating 50 → 68 km/h in 1 s', sample(1_000, 50), sample(2_000, 68), 0.5099],
    ['steady 90 km/h', sample(0, 90), sample(1_000, 90), 0],
    ['braking 36 → 0 km/h in 1 s', sample(0, 36), sample(1_000, 0), -1.0197],
  ])('%s', (_case, from, to, expected) => {
    expect(longitudinalAccelerationG(from, to)).toBeCloseTo(expected, 4);
  });

  it('measures across a gap of exactly the maximum, not beyond it', () => {
    expect(HARSH_EVENT_MAX_GAP_MS).toBe(5_000);
    expect(longitudinalAccelerationG(sample(0, 90), sample(5_000, 0))).toBeCloseTo(-0.5099, 4);
    expect(longitudinalAccelerationG(sample(0, 90), sample(5_001, 0))).toBeUndefined();
  });

  it.each([
    ['the earlier speed is missing', sample(0), sample(1_000, 50)],
    ['the later speed is missing', sample(0, 50), sample(1_000)],
    ['both fixes have the same time', sample(1_000, 50), sample(1_000, 10)],
    ['the later fix is older', sample(2_000, 50), sample(1_000, 10)],
  ])('is undefined when %s', (_case, from, to) => {
    expect(longitudinalAccelerationG(from, to)).toBeUndefined();
  });
});
