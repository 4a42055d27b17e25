import {
  detectDrivingEvents,
  DrivingEventObservation,
  DrivingEventState,
  harshStrengthG,
  NO_DRIVING_EVENTS,
} from './driving-events';
import { headingChangeDegrees, KinematicSample, lateralAccelerationG } from './harsh-events';

const fix = (timeMs: number, speedKmh?: number, course?: number): KinematicSample => ({
  timeMs,
  speedKmh,
  course,
});

/** Feeds fixes in order; returns every observation with the fix index that made it. */
function run(fixes: KinematicSample[]): { index: number; event: DrivingEventObservation }[] {
  let state: DrivingEventState = NO_DRIVING_EVENTS;
  let previous: KinematicSample | undefined;
  const seen: { index: number; event: DrivingEventObservation }[] = [];
  fixes.forEach((sample, index) => {
    const step = detectDrivingEvents(state, previous, sample);
    for (const event of step.events) seen.push({ index, event });
    state = step.state;
    previous = sample;
  });
  return seen;
}

describe('headingChangeDegrees', () => {
  it.each([
    [0, 90, 90],
    [350, 10, 20],
    [10, 350, 20],
    [0, 180, 180],
    [90, 90, 0],
    [45, 270, 135],
  ])('%i° → %i° is %i°', (from, to, expected) => {
    expect(headingChangeDegrees(from, to)).toBe(expected);
  });
});

describe('lateralAccelerationG', () => {
  // Worked by hand: mean speed (m/s) × turn (rad) / Δt (s) / 9.80665.
  it.each([
    ['90° in 5 s at 45 km/h', fix(0, 45, 0), fix(5_000, 45, 90), 0.4004],
    ['90° in 5 s at 20 km/h', fix(0, 20, 0), fix(5_000, 20, 90), 0.178],
    ['30° in 1 s at 60 km/h (across north)', fix(0, 60, 345), fix(1_000, 60, 15), 0.8899],
    ['speeds 40 and 50, 45° in 2 s', fix(0, 40, 100), fix(2_000, 50, 55), 0.5006],
    ['straight on', fix(0, 90, 10), fix(1_000, 90, 10), 0],
  ])('%s', (_case, from, to, expected) => {
    expect(lateralAccelerationG(from, to)).toBeCloseTo(expected, 3);
  });

  it.each([
    ['a course is missing', fix(0, 50, 0), fix(1_000, 50)],
    ['a speed is missing', fix(0, undefined, 0), fix(1_000, 50, 90)],
    ['the mean speed is below 10 km/h', fix(0, 9, 0), fix(1_000, 10.9, 90)],
    ['the fixes are more than 5 s apart', fix(0, 50, 0), fix(5_001, 50, 90)],
    ['the later fix is not later', fix(1_000, 50, 0), fix(1_000, 50, 90)],
  ])('is undefined when %s', (_case, from, to) => {
    expect(lateralAccelerationG(from, to)).toBeUndefined();
  });
});

describe('harshStrengthG', () => {
  it('gives braking as a positive strength and acceleration as its opposite', () => {
    expect(harshStrengthG('harshBraking', fix(0, 72), fix(2_000, 36))).toBeCloseTo(0.5099, 4);
    expect(harshStrengthG('harshAcceleration', fix(0, 72), fix(2_000, 36))).toBeCloseTo(-0.5099, 4);
  });
});

describe('detectDrivingEvents', () => {
  it('counts a harsh braking once per episode, keyed by its first fix, severe from 0.6 g', () => {
    // 72 → 50 in 1 s is 0.62 g (severe), 50 → 30 in 1 s 0.57 g (same episode), 30 → 28 re-arms,
    // 28 → 10 in 1 s 0.51 g is a second, moderate episode.
    const seen = run([fix(0, 72), fix(1_000, 50), fix(2_000, 30), fix(3_000, 28), fix(4_000, 10)]);
    const braking = seen.filter(({ event }) => event.kind === 'harshBraking');
    expect(braking.map(({ index, event }) => [index, event.at, event.severity])).toEqual([
      [1, 1_000, 'severe'],
      [2, 1_000, 'moderate'],
      [4, 4_000, 'moderate'],
    ]);
    expect(braking[0].event.peak).toBeCloseTo(0.6232, 3);
  });

  it('keeps an episode open across a pair it cannot measure', () => {
    // 60 → 40 in 1 s opens it; a 10 s gap measures nothing; 35 → 15 in 1 s is still the same episode.
    const seen = run([fix(0, 60), fix(1_000, 40), fix(11_000, 35), fix(12_000, 15)]);
    expect(seen.filter(({ event }) => event.kind === 'harshBraking').map(({ event }) => event.at)).toEqual([
      1_000, 1_000,
    ]);
  });

  it('detects acceleration from 0.3 g and cornering from 0.4 g', () => {
    const seen = run([fix(0, 20, 0), fix(1_000, 31, 0), fix(2_000, 45, 0), fix(7_000, 45, 90)]);
    expect(seen.map(({ index, event }) => [index, event.kind])).toEqual([
      [1, 'harshAcceleration'],
      [2, 'harshAcceleration'],
      [3, 'harshCornering'],
    ]);
  });

  it('makes one speeding episode of a vehicle hovering at the limit, and a new one after slowing down', () => {
    const speeds = [98, 104, 99, 101, 123, 95, 102];
    const seen = run(speeds.map((speed, i) => fix(i * 10_000, speed)));
    expect(seen.map(({ index, event }) => [index, event.at, event.peak, event.severity])).toEqual([
      [1, 10_000, 104, 'moderate'],
      [3, 10_000, 101, 'moderate'],
      [4, 10_000, 123, 'severe'],
      [6, 60_000, 102, 'moderate'],
    ]);
  });

  it('finds nothing in ordinary driving', () => {
    expect(
      run([fix(0, 0, 0), fix(5_000, 30, 0), fix(10_000, 50, 10), fix(15_000, 50, 40), fix(20_000, 30, 40)]),
    ).toEqual([]);
  });
});
