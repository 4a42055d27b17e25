import { MotionPoint } from './motion-point';
import { advanceMotionState, MotionState, tripCompletedBetween } from './motion-state';
import { MotionSettings } from './settings';
import { at, Track } from './test/tracks';
import { detectTrips } from './test/trip-detector';

const iso = (seconds: number) => at(seconds).toISOString();

/** The state after each point, folded the way the positions consumer does it (through JSON, as jsonb). */
function states(points: readonly MotionPoint[], settings?: Partial<MotionSettings>): MotionState[] {
  const out: MotionState[] = [];
  let state: MotionState | undefined;
  for (const point of points) {
    const next = advanceMotionState(state, point, settings);
    state = JSON.parse(JSON.stringify(next)) as MotionState;
    expect(state).toEqual(next);
    out.push(state);
  }
  return out;
}

/** Trips as the live state sees them: each completion, then the one still running at the end. */
function liveTrips(all: readonly MotionState[]): { start: string; end: string; complete: boolean }[] {
  const trips = all.flatMap((state, index) => {
    const trip = tripCompletedBetween(all[index - 1], state);
    return trip ? [{ start: trip.startTime, end: trip.endTime, complete: true }] : [];
  });
  const last = all[all.length - 1];
  if (last?.tripStartedTime && last.tripEndTime === null && last.lastMovementTime) {
    trips.push({ start: last.tripStartedTime, end: last.lastMovementTime, complete: false });
  }
  return trips;
}

describe('advanceMotionState', () => {
  it('starts from a first point with nothing known yet', () => {
    const [first] = new Track().points;
    expect(advanceMotionState(undefined, first)).toMatchObject({
      fixTime: iso(0),
      moving: false,
      speedKmh: 0,
      startMovingTime: null,
      lastMovementTime: null,
      drivingTimeS: 0,
      fatigueS: 0,
      ignition: null,
      ignitionOnSince: null,
      ignitionTimeS: null,
      tripStartedTime: null,
      tripEndTime: null,
      timeElapsedS: 0,
      lastTrip: null,
    });
  });

  describe('along one trip (moving from 70 s to 660 s, stop confirmed at 830 s)', () => {
    const all = states(new Track().park(60).drive(600, 54).park(600).points);

    it('marks movement at once, and the trip once it got 200 m from its start', () => {
      expect(all[7]).toMatchObject({
        moving: true,
        speedKmh: 54,
        startMovingTime: iso(70),
        lastMovementTime: iso(70),
        tripStartedTime: null,
        drivingTimeS: 0,
      });
      // 150 m out: still within the stop circle of the start.
      expect(all[8].tripStartedTime).toBeNull();
      expect(all[9]).toMatchObject({
        tripStartedTime: iso(70),
        tripEndTime: null,
        drivingTimeS: 20,
        fatigueS: 20,
        timeElapsedS: 20,
      });
      expect(all[66]).toMatchObject({ drivingTimeS: 590, fatigueS: 590, timeElapsedS: 590 });
    });

    it('keeps the trip open while the stop is not yet confirmed', () => {
      expect(all[70]).toMatchObject({
        moving: false,
        speedKmh: 0,
        startMovingTime: iso(70),
        lastMovementTime: iso(660),
        drivingTimeS: 590,
        tripStartedTime: iso(70),
        tripEndTime: null,
        timeElapsedS: 630,
      });
      expect(tripCompletedBetween(all[81], all[82])).toBeNull();
    });

    it('completes the trip when the stop is confirmed and then counts from its end', () => {
      const completed = tripCompletedBetween(all[82], all[83]);
      expect(completed).toMatchObject({ startTime: iso(70), endTime: iso(660), maxSpeedKmh: 54 });
      expect(completed?.distanceM).toBeCloseTo(59 * 150, 3);
      expect(all[83]).toMatchObject({
        tripStartedTime: iso(70),
        tripEndTime: iso(660),
        drivingTimeS: 0,
        timeElapsedS: 170,
        startMovingTime: iso(70),
      });
      expect(tripCompletedBetween(all[83], all[84])).toBeNull();
      // Parked for 600 s after the last movement: not yet a rest of 900 s.
      expect(all[126]).toMatchObject({ fatigueS: 590, timeElapsedS: 600, lastMovementTime: iso(660) });
    });
  });

  describe('fatigue', () => {
    it('survives a 5-minute stop, which still ends the trip', () => {
      const all = states(new Track().drive(1800, 54).park(300).drive(1800, 54).points);
      // 179 ten-second intervals between the moving points of each drive.
      expect(all[210]).toMatchObject({ fatigueS: 1790, drivingTimeS: 0, tripEndTime: iso(1800) });
      const last = all[all.length - 1];
      expect(last).toMatchObject({ fatigueS: 3580, drivingTimeS: 1790, tripStartedTime: iso(2110) });
    });

    it('resets after a 20-minute stop, at the point 900 s after the last movement', () => {
      const all = states(new Track().drive(1800, 54).park(1200).drive(1800, 54).points);
      expect(all[269]).toMatchObject({ fixTime: iso(2690), fatigueS: 1790 });
      expect(all[270]).toMatchObject({ fixTime: iso(2700), fatigueS: 0 });
      expect(all[all.length - 1]).toMatchObject({ fatigueS: 1790, drivingTimeS: 1790 });
    });

    it('treats 1000 s of silence between two moving points as a rest, not as driving', () => {
      const all = states(new Track().drive(600, 54).silence(1000).drive(600, 54).points);
      expect(all[60]).toMatchObject({ fatigueS: 590, drivingTimeS: 590 });
      expect(all[61]).toMatchObject({ fixTime: iso(1610), fatigueS: 0, drivingTimeS: 590 });
      // The trip goes on (the silence is shorter than maxGapS and ended 300 m away); the silence adds nothing.
      expect(all[120]).toMatchObject({ fatigueS: 590, drivingTimeS: 1180, tripStartedTime: iso(10) });
    });
  });

  it('tracks ignition time, carried over points that do not report ignition', () => {
    const all = states(
      new Track({ ignition: false })
        .park(30, { ignition: false })
        .point(10, { ignition: true })
        .park(60)
        .point(10, { ignition: false }).points,
    );
    expect(all[3]).toMatchObject({ ignition: false, ignitionOnSince: null, ignitionTimeS: 0 });
    expect(all[4]).toMatchObject({ ignition: true, ignitionOnSince: iso(40), ignitionTimeS: 0 });
    expect(all[10]).toMatchObject({ ignition: true, ignitionOnSince: iso(40), ignitionTimeS: 60 });
    expect(all[11]).toMatchObject({ ignition: false, ignitionOnSince: null, ignitionTimeS: 0 });
  });

  it('treats GPS drift as movement but never as a trip', () => {
    const absent = { speed: 'absent' as const };
    const all = states(new Track(absent).park(3600, { ...absent, drift: true }).points);
    // 22–55 m jumps every 10 s derive to 8–20 km/h.
    expect(all.filter((state) => state.moving).length).toBe(360);
    const last = all[all.length - 1];
    expect(last).toMatchObject({
      moving: true,
      lastMovementTime: iso(3600),
      tripStartedTime: null,
      tripEndTime: null,
      drivingTimeS: 0,
      timeElapsedS: 0,
      lastTrip: null,
    });
  });

  it('ignores a point not newer than the state, so redelivery changes nothing', () => {
    const points = new Track().park(60).drive(100, 54).points;
    const all = states(points);
    const last = all[all.length - 1];
    expect(advanceMotionState(last, points[points.length - 1])).toBe(last);
    expect(advanceMotionState(last, points[3])).toBe(last);
  });

  it('starts over from a stored state of another version', () => {
    const [first, second] = new Track().park(10).points;
    const stale = { ...advanceMotionState(undefined, first), version: 0 } as unknown as MotionState;
    expect(advanceMotionState(stale, second)).toEqual(advanceMotionState(undefined, second));
  });
});

describe('live state and detectTrips agree', () => {
  const on = { ignition: true };
  const off = { ignition: false };
  const absent = { speed: 'absent' as const };
  // Light, stop, ignition off, drift, shuffle, gap, and a trip still running at the end.
  const mixed = new Track(on)
    .park(60, on)
    .drive(300, 54, on)
    .park(60, on)
    .drive(300, 54, on)
    .park(300, on)
    .drive(200, 54, on)
    .park(20, on)
    .point(10, off)
    .park(600, off)
    .point(10, on)
    .park(300, { ...on, ...absent, drift: true })
    .drive(30, 18, on)
    .park(400, on)
    .drive(300, 54, on)
    .silence(7200)
    .drive(300, 54, on)
    .park(100, on).points;
  const derived = new Track(absent)
    .park(60, absent)
    .drive(600, 36, absent)
    .park(120, absent)
    .drive(300, 72, absent)
    .park(240, { ...absent, drift: true })
    .drive(300, 54, absent).points;

  it('on a mixed track', () => {
    const batch = detectTrips(mixed).map((trip) => ({
      start: trip.startTime.toISOString(),
      end: trip.endTime.toISOString(),
      complete: trip.complete,
    }));
    expect(batch).toEqual([
      { start: iso(70), end: iso(720), complete: true },
      { start: iso(1030), end: iso(1250), complete: true },
      { start: iso(2600), end: iso(2890), complete: true },
      { start: iso(10100), end: iso(10390), complete: false },
    ]);
    expect(liveTrips(states(mixed))).toEqual(batch);
  });

  it.each<[string, Partial<MotionSettings>]>([
    ['defaults', {}],
    ['without ignition', { useIgnition: false }],
    ['with short stops', { minStopDurationS: 45 }],
    ['with long stops and a low speed threshold', { minStopDurationS: 600, movingSpeedKmh: 2 }],
    ['with a short gap and a large radius', { maxGapS: 300, minTripDistanceM: 1000 }],
  ])('on every track %s', (_name, settings) => {
    for (const points of [mixed, derived]) {
      const batch = detectTrips(points, settings).map((trip) => ({
        start: trip.startTime.toISOString(),
        end: trip.endTime.toISOString(),
        complete: trip.complete,
      }));
      expect(batch.length).toBeGreaterThan(0);
      expect(liveTrips(states(points, settings))).toEqual(batch);
    }
  });
});
