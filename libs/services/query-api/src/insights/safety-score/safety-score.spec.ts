import { ScoreDay, scoreDays } from './safety-score';

const day = (partial: Partial<ScoreDay>): ScoreDay => ({
  day: '2026-11-20',
  distanceM: 0,
  drivingS: 0,
  speedingS: 0,
  idleS: 0,
  events: [],
  ...partial,
});

describe('scoreDays', () => {
  it('gives 100 to careful driving', () => {
    const result = scoreDays([day({ distanceM: 250_000, drivingS: 10_800 })]);
    expect(result.score).toBe(100);
    expect(result.scoredDays).toBe(1);
    expect(result.distanceKm).toBe(250);
  });

  it('subtracts 5 points per weighted event per 100 km, severe events counting double', () => {
    // 200 km; one moderate braking (2), one severe cornering (2 × 2), one acceleration (1): 7 weighted
    // events, 3.5 per 100 km, 17.5 points: 82.5 rounds to 83.
    const result = scoreDays([
      day({
        distanceM: 200_000,
        drivingS: 9_000,
        events: [
          { kind: 'harshBraking', severity: 'moderate', count: 1 },
          { kind: 'harshCornering', severity: 'severe', count: 1 },
          { kind: 'harshAcceleration', severity: 'moderate', count: 1 },
        ],
      }),
    ]);
    expect(result).toMatchObject({
      score: 83,
      weightedEventsPer100Km: 3.5,
      harshEventPenalty: 17.5,
      harshBrakingCount: 1,
      harshCorneringCount: 1,
      harshAccelerationCount: 1,
      severeEventCount: 1,
    });
  });

  it('takes the event rate over at least 100 km', () => {
    // 20 km with one braking: 2 weighted events over 100 km, 10 points.
    const result = scoreDays([
      day({
        distanceM: 20_000,
        drivingS: 1_800,
        events: [{ kind: 'harshBraking', severity: 'moderate', count: 1 }],
      }),
    ]);
    expect(result.score).toBe(90);
  });

  it('subtracts a point per percent of driving time over the limit; speeding episodes are only counted', () => {
    const result = scoreDays([
      day({
        distanceM: 150_000,
        drivingS: 6_000,
        speedingS: 720,
        events: [{ kind: 'speeding', severity: 'moderate', count: 4 }],
      }),
    ]);
    expect(result).toMatchObject({ score: 88, speedingPercent: 12, speedingPenalty: 12, speedingCount: 4 });
  });

  it('leaves days under 1 km out of the score but reports their figures', () => {
    const result = scoreDays([
      day({ day: '2026-11-20', distanceM: 300_000, drivingS: 12_000 }),
      day({
        day: '2026-11-21',
        distanceM: 800,
        drivingS: 300,
        events: [{ kind: 'harshBraking', severity: 'severe', count: 3 }],
      }),
    ]);
    expect(result).toMatchObject({ score: 100, scoredDays: 1, scoredDistanceKm: 300, distanceKm: 300.8 });
    expect(result.harshBrakingCount).toBe(3);
  });

  it('has no score without a day that counts, and never goes below 0', () => {
    expect(scoreDays([]).score).toBeNull();
    expect(scoreDays([day({ distanceM: 500 })]).score).toBeNull();
    const reckless = scoreDays([
      day({
        distanceM: 100_000,
        drivingS: 3_600,
        events: [{ kind: 'harshBraking', severity: 'severe', count: 20 }],
      }),
    ]);
    expect(reckless.score).toBe(0);
  });
});
