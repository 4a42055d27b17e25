import {
  ActivityFigures,
  addActivity,
  advanceInsights,
  InsightFix,
  InsightState,
  NO_ACTIVITY,
  quarterOf,
} from './insight-state';

const MOVING_KMH = 5;
const MIN = 60_000;

/** Feeds the fixes in order and sums every figure; returns the total, the events and the last state. */
function run(fixes: InsightFix[], state: InsightState = {}) {
  let total: ActivityFigures = { ...NO_ACTIVITY };
  const events = [];
  for (const fix of fixes) {
    const step = advanceInsights(state, fix, MOVING_KMH);
    total = addActivity(total, step.figures);
    events.push(...step.events);
    state = step.state;
  }
  return { total, events, state };
}

/** A fix at `timeMs` on the equator, `eastM` metres east of 0° (1° of longitude is 111,195 m there). */
const at = (timeMs: number, eastM: number, extra: Partial<InsightFix> = {}): InsightFix => ({
  timeMs,
  lat: 0,
  lng: eastM / 111_194.93,
  ...extra,
});

describe('advanceInsights: driving figures', () => {
  it('sums distance and driving time of moving pairs, and idle time standing with the ignition on', () => {
    const { total } = run([
      at(0, 0, { speedKmh: 0, ignition: true }),
      at(10_000, 0, { speedKmh: 0, ignition: true }), // idle 10 s
      at(20_000, 100, { speedKmh: 36, ignition: true }), // driving 10 s, 100 m
      at(30_000, 200, { speedKmh: 36, ignition: true }), // driving 10 s, 100 m
      at(40_000, 200, { speedKmh: 0, ignition: false }), // driving (it stopped during it), 0 m
    ]);
    expect(total.distanceM).toBeCloseTo(200, 0);
    expect(total.drivingS).toBe(30);
    expect(total.idleS).toBe(10);
    expect(total.speedingS).toBe(0);
  });

  it('counts half a pair as speeding for each end above 100 km/h', () => {
    const { total } = run([
      at(0, 0, { speedKmh: 95 }),
      at(10_000, 300, { speedKmh: 105 }), // one end over: 5 s
      at(20_000, 600, { speedKmh: 110 }), // both: 10 s
      at(30_000, 900, { speedKmh: 100 }), // one end: 5 s (100 is not above)
    ]);
    expect(total.speedingS).toBe(20);
    expect(total.drivingS).toBe(30);
  });

  it('shares nothing across a gap of more than five minutes', () => {
    const { total } = run([at(0, 0, { speedKmh: 50 }), at(5 * MIN + 1, 5_000, { speedKmh: 50 })]);
    expect(total).toEqual(NO_ACTIVITY);
  });

  it('uses the displacement when a speed is missing', () => {
    // 50 m in 10 s is 18 km/h: moving. 10 m in 10 s is 3.6 km/h: not.
    expect(run([at(0, 0), at(10_000, 50)]).total.drivingS).toBe(10);
    expect(run([at(0, 0), at(10_000, 10)]).total.drivingS).toBe(0);
  });

  it('reports harsh braking through the shared detection', () => {
    const { events } = run([at(0, 0, { speedKmh: 72 }), at(2_000, 30, { speedKmh: 36 })]);
    expect(events).toEqual([
      expect.objectContaining({ kind: 'harshBraking', at: 2_000, severity: 'moderate', speedKmh: 36 }),
    ]);
  });
});

describe('advanceInsights: battery samples', () => {
  it('takes resting samples once the ignition has been off for 15 minutes', () => {
    const { total } = run([
      at(0, 0, { ignition: true, powerV: 14.1 }),
      at(1 * MIN, 0, { ignition: false, powerV: 12.9 }), // off since 1 min
      at(10 * MIN, 0, { ignition: false, powerV: 12.7 }), // 9 min: not settled
      at(16 * MIN, 0, { ignition: false, powerV: 12.6 }), // 15 min: settled
      at(30 * MIN, 0, { powerV: 12.5 }), // ignition carried: off, settled
      at(40 * MIN, 0, { ignition: false, powerV: 0 }), // a cut tracker: no sample
    ]);
    expect(total.restCount).toBe(2);
    expect(total.restSumV).toBeCloseTo(25.1, 6);
    expect(total.restLast).toEqual({ volts: 12.5, timeMs: 30 * MIN });
  });

  it('counts an engine start and its cranking dip below the voltage before it, for 30 s', () => {
    const { total, state } = run([
      at(0, 0, { ignition: false, powerV: 12.5 }),
      at(20 * MIN, 0, { ignition: true, powerV: 10.4 }), // the start, dipping
      at(20 * MIN + 10_000, 0, { ignition: true, powerV: 9.9 }), // still cranking
      at(20 * MIN + 20_000, 0, { ignition: true, powerV: 14.0 }), // alternator: not a dip
      at(20 * MIN + 40_000, 0, { ignition: true, powerV: 9.0 }), // after the window
    ]);
    expect(total.starts).toBe(1);
    expect(total.crankCount).toBe(2);
    expect(total.crankMinV).toBe(9.9);
    expect(state.start).toBeUndefined();
  });

  it('sees no start when the first known ignition is on', () => {
    const { total } = run([at(0, 0, { ignition: true, powerV: 10 })]);
    expect(total.starts).toBe(0);
    expect(total.crankCount).toBe(0);
  });
});

describe('engine codes', () => {
  /** Running with the ignition on, a report every 5 minutes from `fromMin` to `toMin`, with `codes`. */
  const running = (fromMin: number, toMin: number, dtcCodes?: string[]) =>
    Array.from({ length: (toMin - fromMin) / 5 + 1 }, (_, i) =>
      at((fromMin + i * 5) * MIN, 0, { ignition: true, dtcCodes }),
    );

  it('keeps a code active until the engine has run 20 minutes without it; parking stops that clock', () => {
    const { state } = run([
      ...running(0, 10, ['P0300', 'C1234', 'bogus']),
      ...running(15, 30, ['P0300']), // C1234 last seen at 10 min of running
      at(35 * MIN, 0, { ignition: false }),
      at(300 * MIN, 0, { ignition: false }), // parked for hours: the clock stands still
    ]);
    expect(state.engineClockS).toBe(30 * 60);
    expect(state.activeCodes).toEqual({ P0300: 30 * 60, C1234: 10 * 60 });
    // Back on the road: C1234 goes 20 minutes of running after 10, P0300 after 30.
    const later = run([...running(400, 420)], state).state;
    expect(later.engineClockS).toBe(50 * 60);
    expect(later.activeCodes).toEqual({ P0300: 30 * 60 });
    expect(run([at(425 * MIN, 0, { ignition: true })], later).state.activeCodes).toBeUndefined();
  });

  it('does not run the clock across a gap of more than five minutes', () => {
    const { state } = run([
      at(0, 0, { ignition: true, dtcCodes: ['P0171'] }),
      at(60 * MIN, 0, { ignition: true }),
    ]);
    expect(state.engineClockS).toBeUndefined();
    expect(state.activeCodes).toEqual({ P0171: 0 });
  });
});

describe('quarterOf', () => {
  it('floors to the quarter hour', () => {
    expect(new Date(quarterOf(Date.parse('2026-11-24T10:44:59.999Z'))).toISOString()).toBe(
      '2026-11-24T10:30:00.000Z',
    );
    expect(new Date(quarterOf(Date.parse('2026-11-24T10:45:00Z'))).toISOString()).toBe(
      '2026-11-24T10:45:00.000Z',
    );
  });
});
