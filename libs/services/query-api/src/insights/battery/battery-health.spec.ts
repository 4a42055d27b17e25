import {
  BatteryEvidence,
  batteryHealth,
  daysToCritical,
  fitRestingTrend,
  RestingDay,
  systemVoltsOf,
} from './battery-health';

const AT = new Date('2026-11-20T03:00:00Z');

/** Evidence with nothing in it but what a test gives. */
const evidence = (partial: Partial<BatteryEvidence> = {}): BatteryEvidence => ({
  restingDays: [],
  cranking: { count: 0, starts: 0 },
  today: '2026-11-20',
  ...partial,
});

/** One resting sample of `volts` on 2026-11-20, and the same as the latest. */
const restingAt = (volts: number, crank?: number): BatteryEvidence =>
  evidence({
    restingDays: [{ day: '2026-11-20', count: 1, sumV: volts }],
    latestResting: { volts, at: AT },
    cranking: crank === undefined ? { count: 0, starts: 0 } : { count: 1, lowestV: crank, starts: 1 },
  });

/** Daily means on the given dates, each from two samples. */
const days = (means: [string, number][]): RestingDay[] =>
  means.map(([day, mean]) => ({ day, count: 2, sumV: 2 * mean }));

describe('batteryHealth: status of a 12 V battery', () => {
  it.each([
    [12.65, 'Good'],
    [12.4, 'Good'],
    [12.39, 'Fair'],
    [12.2, 'Fair'],
    [12.19, 'Poor'],
    [12.0, 'Poor'],
    [11.99, 'Critical'],
    [11.2, 'Critical'],
  ])('resting at %s V is %s', (volts, status) => {
    const result = batteryHealth(restingAt(volts));
    expect(result).toMatchObject({ status, batteryType: '12V', restingVoltage: volts, criticalVoltage: 12 });
  });

  it('reads single-precision voltages to 0.01 V: 12.4 stored as 12.3999996 is still Good', () => {
    const stored = Math.fround(12.4);
    expect(stored).toBeLessThan(12.4);
    expect(batteryHealth(restingAt(stored))).toMatchObject({ status: 'Good', restingVoltage: 12.4 });
  });

  it.each([
    // resting, lowest cranking, status: the worse of the two
    [12.6, 10.4, 'Good'],
    [12.6, 10.0, 'Good'],
    [12.6, 9.9, 'Poor'],
    [12.3, 9.8, 'Poor'],
    [12.1, 9.7, 'Poor'],
    [11.9, 9.8, 'Critical'],
    [12.6, 9.6, 'Poor'],
    [12.6, 9.59, 'Critical'],
  ])('resting %s V with a cranking dip to %s V is %s', (resting, crank, status) => {
    const result = batteryHealth(restingAt(resting, crank));
    expect(result).toMatchObject({ status, lowestCrankingVoltage: crank, engineStarts: 1 });
  });

  it('is Critical from a failing cranking dip alone, Unknown from a sound one alone', () => {
    const failing = batteryHealth(evidence({ cranking: { count: 2, lowestV: 9.4, starts: 3 } }));
    expect(failing).toMatchObject({
      status: 'Critical',
      batteryType: '12V',
      restingVoltage: null,
      lowestCrankingVoltage: 9.4,
      engineStarts: 3,
      sampleCount: 2,
    });
    const tiring = batteryHealth(evidence({ cranking: { count: 1, lowestV: 9.8, starts: 1 } }));
    expect(tiring.status).toBe('Unknown');
  });

  it('is Unknown with nothing measured, and says so in every figure', () => {
    expect(batteryHealth(evidence())).toEqual({
      batteryType: null,
      status: 'Unknown',
      restingVoltage: null,
      restingVoltageAt: null,
      lowestCrankingVoltage: null,
      engineStarts: 0,
      trendVoltsPerDay: null,
      trend: null,
      predictedDaysToCritical: null,
      criticalVoltage: null,
      stateOfCharge: null,
      sampleCount: 0,
      periodStart: null,
      periodEnd: null,
      daysUsed: 0,
    });
  });

  it('is Unknown when only a running voltage was reported, but knows the system from it', () => {
    const result = batteryHealth(evidence({ readings: { powerV: 14.2 } }));
    expect(result).toMatchObject({ status: 'Unknown', batteryType: '12V', criticalVoltage: 12 });
  });

  it('counts resting and cranking samples and passes the period through', () => {
    const period = { start: new Date('2026-11-01T06:00:00Z'), end: new Date('2026-11-20T03:00:00Z') };
    const result = batteryHealth(
      evidence({
        restingDays: days([
          ['2026-11-01', 12.6],
          ['2026-11-20', 12.6],
        ]),
        latestResting: { volts: 12.6, at: AT },
        cranking: { count: 3, lowestV: 10.5, starts: 4 },
        period,
      }),
    );
    expect(result).toMatchObject({
      sampleCount: 7,
      daysUsed: 2,
      periodStart: period.start,
      periodEnd: period.end,
      restingVoltageAt: AT,
    });
  });
});

describe('batteryHealth: 24 V systems', () => {
  it.each([
    [25.3, undefined, 'Good'],
    [24.8, undefined, 'Good'],
    [24.5, undefined, 'Fair'],
    [24.3, undefined, 'Poor'],
    [23.9, undefined, 'Critical'],
    [25.3, 19.9, 'Poor'],
    [25.3, 19.1, 'Critical'],
    [25.3, 20.4, 'Good'],
  ])('resting %s V, cranking %s V: %s, every threshold doubled', (resting, crank, status) => {
    const result = batteryHealth(restingAt(resting, crank));
    expect(result).toMatchObject({ status, batteryType: '24V', criticalVoltage: 24 });
  });

  it('tells a 24 V system without resting samples by its running voltage, even with a deep dip', () => {
    const result = batteryHealth(
      evidence({ cranking: { count: 1, lowestV: 17.5, starts: 1 }, readings: { powerV: 27.8 } }),
    );
    expect(result).toMatchObject({ batteryType: '24V', status: 'Critical', lowestCrankingVoltage: 17.5 });
  });

  it('judges the system by the mean resting voltage, not the latest sample', () => {
    expect(
      systemVoltsOf(
        evidence({
          restingDays: days([
            ['2026-11-18', 24.6],
            ['2026-11-19', 24.4],
          ]),
          latestResting: { volts: 12.0, at: AT },
        }),
      ),
    ).toBe(24);
    expect(systemVoltsOf(evidence({ cranking: { count: 1, lowestV: 11.1, starts: 1 } }))).toBe(12);
    expect(systemVoltsOf(evidence())).toBeUndefined();
  });
});

describe('batteryHealth: trend and prediction', () => {
  it('fits the daily means: −0.05 V/day from 12.40 V today is 8 days to 12.0 V', () => {
    // x = 0..3, y = 12.60..12.45: slope −0.05; the line at x = 4 (today) is 12.40; 0.40 / 0.05 = 8.
    const result = batteryHealth(
      evidence({
        restingDays: days([
          ['2026-11-16', 12.6],
          ['2026-11-17', 12.55],
          ['2026-11-18', 12.5],
          ['2026-11-19', 12.45],
        ]),
        latestResting: { volts: 12.45, at: AT },
        today: '2026-11-20',
      }),
    );
    expect(result).toMatchObject({
      status: 'Good',
      trendVoltsPerDay: -0.05,
      trend: 'Declining',
      predictedDaysToCritical: 8,
      daysUsed: 4,
      sampleCount: 8,
    });
  });

  it('uses calendar days between the points, across a month end', () => {
    // 2026-02-27, 03-01, 03-04: x = 0, 2, 5; y = 12.5 − 0.01 x. Today 03-13 (x = 14): 12.36 V, 36 days.
    const fit = fitRestingTrend(
      days([
        ['2026-02-27', 12.5],
        ['2026-03-01', 12.48],
        ['2026-03-04', 12.45],
      ]),
      '2026-03-13',
    );
    expect(fit!.slope).toBeCloseTo(-0.01, 10);
    expect(fit!.valueToday).toBeCloseTo(12.36, 10);
    expect(daysToCritical(fit!, 12, 0.005)).toBe(36);
  });

  it('weighs each day once, whatever its number of samples', () => {
    const fit = fitRestingTrend(
      [
        { day: '2026-11-17', count: 10, sumV: 126 },
        { day: '2026-11-18', count: 1, sumV: 12.5 },
        { day: '2026-11-19', count: 4, sumV: 49.6 },
      ],
      '2026-11-20',
    );
    expect(fit!.slope).toBeCloseTo(-0.1, 10);
  });

  it.each([
    [-0.004, 'Stable'],
    [0, 'Stable'],
    [0.0049, 'Stable'],
    [0.02, 'Rising'],
    [-0.006, 'Declining'],
  ])('a slope of %s V/day is %s; only Declining predicts', (slope, trend) => {
    const line = (x: number): [string, number] => [`2026-11-${10 + x}`, 12.5 + slope * x];
    const result = batteryHealth(
      evidence({ restingDays: days([line(0), line(4), line(8)]), today: '2026-11-20' }),
    );
    expect(result.trend).toBe(trend);
    expect(result.trendVoltsPerDay).toBeCloseTo(slope, 4);
    // −0.006 V/day from 12.5 − 0.06 = 12.44 V today: 0.44 / 0.006 = 73.3, 73 days.
    expect(result.predictedDaysToCritical).toBe(trend === 'Declining' ? 73 : null);
  });

  it('predicts 0 days when the line is at or below the critical level today, falling or not', () => {
    const falling = batteryHealth(
      evidence({
        restingDays: days([
          ['2026-11-17', 12.2],
          ['2026-11-18', 12.1],
          ['2026-11-19', 12.0],
        ]),
      }),
    );
    expect(falling).toMatchObject({ trend: 'Declining', predictedDaysToCritical: 0 });
    const flat = batteryHealth(
      evidence({
        restingDays: days([
          ['2026-11-17', 11.8],
          ['2026-11-18', 11.8],
          ['2026-11-19', 11.8],
        ]),
      }),
    );
    expect(flat).toMatchObject({ trend: 'Stable', predictedDaysToCritical: 0 });
  });

  it('has no trend or prediction with fewer than 3 days of resting samples', () => {
    const result = batteryHealth(
      evidence({
        restingDays: days([
          ['2026-11-18', 12.3],
          ['2026-11-19', 12.1],
        ]),
      }),
    );
    expect(result).toMatchObject({
      trend: null,
      trendVoltsPerDay: null,
      predictedDaysToCritical: null,
      daysUsed: 2,
    });
  });

  it('doubles the noise floor and the critical level for 24 V', () => {
    // −0.008 V/day: Declining on 12 V, Stable on 24 V (floor 0.01).
    const on = (base: number) =>
      batteryHealth(
        evidence({
          restingDays: days([
            ['2026-11-10', base],
            ['2026-11-14', base - 0.032],
            ['2026-11-18', base - 0.064],
          ]),
        }),
      );
    expect(on(12.6).trend).toBe('Declining');
    expect(on(25.2)).toMatchObject({ trend: 'Stable', predictedDaysToCritical: null, criticalVoltage: 24 });
    // −0.1 V/day from 24.6 V on 11-20 (x = 2 past the last point): 0.6 / 0.1 = 6 days.
    const weak = batteryHealth(
      evidence({
        restingDays: days([
          ['2026-11-16', 25.0],
          ['2026-11-17', 24.9],
          ['2026-11-18', 24.8],
        ]),
        today: '2026-11-20',
      }),
    );
    expect(weak).toMatchObject({ batteryType: '24V', predictedDaysToCritical: 6 });
  });
});

describe('batteryHealth: electric vehicles', () => {
  it.each([
    [80, 'Good'],
    [50, 'Good'],
    [49.9, 'Fair'],
    [20, 'Fair'],
    [19.9, 'Poor'],
    [10, 'Poor'],
    [9.9, 'Critical'],
  ])('a state of charge of %s %% is %s', (batteryLevel, status) => {
    const result = batteryHealth(evidence({ readings: { batteryLevel, batteryRangeKm: 3 * batteryLevel } }));
    expect(result).toMatchObject({ batteryType: 'EV', status, stateOfCharge: batteryLevel });
  });

  it.each([
    [{ batteryLevel: 60, charging: false }, true],
    [{ batteryLevel: 60, chargerPowerKw: 11 }, true],
    [{ batteryLevel: 60, batteryRangeKm: 0 }, true],
    [{ batteryLevel: 60 }, false],
    [{ batteryLevel: 60, powerV: 12.6 }, false],
    [{ batteryRangeKm: 200, charging: true }, false],
  ])('readings %j are an EV: %s', (readings, electric) => {
    const result = batteryHealth(evidence({ readings }));
    expect(result.batteryType === 'EV').toBe(electric);
    expect(result.stateOfCharge).toBe(electric ? 60 : null);
  });

  it('reports the auxiliary 12 V battery as measured, the status from the state of charge', () => {
    const result = batteryHealth({
      ...restingAt(11.7),
      readings: { batteryLevel: 72.46, batteryRangeKm: 290, charging: true, powerV: 13.9 },
    });
    expect(result).toMatchObject({
      batteryType: 'EV',
      status: 'Good',
      stateOfCharge: 72.5,
      restingVoltage: 11.7,
      criticalVoltage: 12,
    });
    const noAuxiliary = batteryHealth(evidence({ readings: { batteryLevel: 15, charging: false } }));
    expect(noAuxiliary).toMatchObject({
      status: 'Poor',
      restingVoltage: null,
      lowestCrankingVoltage: null,
      criticalVoltage: null,
    });
  });
});
