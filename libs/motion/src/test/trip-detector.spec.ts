import { at, Track } from './tracks';
import { detectTrips, Trip, TripDetector } from './trip-detector';

/** The facts of a trip worth comparing, with the distance checked separately (within 1 %). */
const shape = (trip: Trip) => ({
  startIndex: trip.startIndex,
  endIndex: trip.endIndex,
  startTime: trip.startTime.toISOString(),
  endTime: trip.endTime.toISOString(),
  durationS: trip.durationS,
  complete: trip.complete,
});
const iso = (seconds: number) => at(seconds).toISOString();

function expectDistance(trip: Trip, metres: number): void {
  expect(Math.abs(trip.distanceM - metres) / metres).toBeLessThan(0.01);
}

// Speeds: 54 km/h is 150 m per 10 s point, so a stop circle of 200 m is left every second point.
describe('detectTrips', () => {
  it('finds one trip from the first moving point to the last one before the stop', () => {
    const track = new Track().park(60).drive(600, 54).park(600);
    const trips = detectTrips(track.points);
    expect(trips.map(shape)).toEqual([
      { startIndex: 7, endIndex: 66, startTime: iso(70), endTime: iso(660), durationS: 590, complete: true },
    ]);
    const [trip] = trips;
    expectDistance(trip, 59 * 150);
    expect(trip.maxSpeedKmh).toBe(54);
    expect(trip.points).toHaveLength(60);
    expect(trip.points[0].id).toBe('p7');
    expect(trip.points[59].id).toBe('p66');
  });

  it('does not split a trip at a 60 s halt at a light', () => {
    const track = new Track().park(60).drive(300, 54).park(60).drive(300, 54).park(600);
    const trips = detectTrips(track.points);
    expect(trips.map(shape)).toEqual([
      { startIndex: 7, endIndex: 72, startTime: iso(70), endTime: iso(720), durationS: 650, complete: true },
    ]);
    expectDistance(trips[0], 59 * 150);
  });

  it('splits a trip at a 300 s stop', () => {
    const track = new Track().park(60).drive(300, 54).park(300).drive(300, 54).park(600);
    const trips = detectTrips(track.points);
    expect(trips.map(shape)).toEqual([
      { startIndex: 7, endIndex: 36, startTime: iso(70), endTime: iso(360), durationS: 290, complete: true },
      {
        startIndex: 67,
        endIndex: 96,
        startTime: iso(670),
        endTime: iso(960),
        durationS: 290,
        complete: true,
      },
    ]);
    expectDistance(trips[0], 29 * 150);
    expectDistance(trips[1], 29 * 150);
  });

  it('splits once the vehicle stayed within 200 m of one spot for minStopDurationS, not sooner', () => {
    // The stop circle is anchored at the point 150 m before the halt spot (index 35, 350 s): staying
    // until 520 s is 170 s, until 530 s is 180 s.
    const short = new Track().park(60).drive(300, 54).park(160).drive(300, 54).park(600);
    expect(detectTrips(short.points)).toHaveLength(1);
    const exact = new Track().park(60).drive(300, 54).park(170).drive(300, 54).park(600);
    expect(detectTrips(exact.points).map((trip) => trip.endTime.toISOString())).toEqual([iso(360), iso(830)]);
  });

  it('ends a trip at the last point before a 2-hour gap and starts the next one after it', () => {
    const track = new Track().park(60).drive(300, 54).silence(7200).drive(300, 54).park(600);
    const trips = detectTrips(track.points);
    expect(trips.map(shape)).toEqual([
      { startIndex: 7, endIndex: 36, startTime: iso(70), endTime: iso(360), durationS: 290, complete: true },
      {
        startIndex: 37,
        endIndex: 66,
        startTime: iso(7570),
        endTime: iso(7860),
        durationS: 290,
        complete: true,
      },
    ]);
    // The step across the gap belongs to neither trip.
    expectDistance(trips[0], 29 * 150);
    expectDistance(trips[1], 29 * 150);
  });

  it('ends a trip at the first ignition-off point', () => {
    const on = { ignition: true };
    const track = new Track(on)
      .park(60, on)
      .drive(300, 54, on)
      .park(30, on)
      .point(10, { ignition: false })
      .park(600, { ignition: false });
    const trips = detectTrips(track.points);
    expect(trips.map(shape)).toEqual([
      { startIndex: 7, endIndex: 40, startTime: iso(70), endTime: iso(400), durationS: 330, complete: true },
    ]);
    expectDistance(trips[0], 29 * 150);

    // Without the ignition rule the same track ends at the last moving point, once the stop is confirmed.
    expect(detectTrips(track.points, { useIgnition: false }).map(shape)).toEqual([
      { startIndex: 7, endIndex: 36, startTime: iso(70), endTime: iso(360), durationS: 290, complete: true },
    ]);
  });

  it('starts no trip while the ignition is off, also on points that do not repeat it', () => {
    const towed = new Track({ ignition: false }).drive(300, 54, { ignition: false }).park(600);
    expect(detectTrips(towed.points)).toEqual([]);
    const silent = new Track({ ignition: false }).drive(300, 54).park(600);
    expect(detectTrips(silent.points)).toEqual([]);
    expect(detectTrips(silent.points, { useIgnition: false }).map(shape)).toEqual([
      { startIndex: 1, endIndex: 30, startTime: iso(10), endTime: iso(300), durationS: 290, complete: true },
    ]);
  });

  it('finds no trip in GPS drift while parked, ignition on or unknown, speed absent', () => {
    const absent = { speed: 'absent' as const };
    const unknown = new Track(absent).park(3600, { ...absent, drift: true });
    expect(detectTrips(unknown.points)).toEqual([]);
    const ignitionOn = { ...absent, ignition: true };
    const idling = new Track(ignitionOn).park(3600, { ...ignitionOn, drift: true });
    expect(detectTrips(idling.points)).toEqual([]);
  });

  it('discards a 150 m shuffle, and a back-and-forth that never gets 200 m away', () => {
    const shuffle = new Track().park(60).drive(30, 18).park(600);
    expect(detectTrips(shuffle.points)).toEqual([]);
    const backAndForth = new Track()
      .park(60)
      .drive(30, 18, { heading: 'north' })
      .drive(30, 18, { heading: 'south' })
      .drive(30, 18, { heading: 'north' })
      .park(600);
    expect(detectTrips(backAndForth.points)).toEqual([]);
  });

  it('reports a trip still ongoing at the last point as incomplete, ending at its last moving point', () => {
    const driving = new Track().park(60).drive(300, 54);
    expect(detectTrips(driving.points).map(shape)).toEqual([
      { startIndex: 7, endIndex: 36, startTime: iso(70), endTime: iso(360), durationS: 290, complete: false },
    ]);
    const atLight = new Track().park(60).drive(300, 54).park(60);
    const [trip] = detectTrips(atLight.points);
    expect(shape(trip)).toEqual({
      startIndex: 7,
      endIndex: 36,
      startTime: iso(70),
      endTime: iso(360),
      durationS: 290,
      complete: false,
    });
    expectDistance(trip, 29 * 150);
  });

  it('derives the speed from the displacement when points carry none', () => {
    const absent = { speed: 'absent' as const };
    const track = new Track(absent).park(60, absent).drive(600, 54, absent).park(600, absent);
    const trips = detectTrips(track.points);
    expect(trips.map(shape)).toEqual([
      { startIndex: 7, endIndex: 66, startTime: iso(70), endTime: iso(660), durationS: 590, complete: true },
    ]);
    expect(trips[0].maxSpeedKmh).toBeCloseTo(54, 6);
    expectDistance(trips[0], 59 * 150);
  });

  it('measures an eastward trip along a parallel within 1 %', () => {
    const track = new Track({ lat: 60 }).park(60).drive(600, 72, { heading: 'east' }).park(600);
    const [trip] = detectTrips(track.points);
    expect(trip.startIndex).toBe(7);
    expectDistance(trip, 59 * 200);
  });

  it('honours other settings: a 60 s stop splits when minStopDurationS is 45', () => {
    const track = new Track().park(60).drive(300, 54).park(60).drive(300, 54).park(600);
    expect(detectTrips(track.points, { minStopDurationS: 45 }).map((trip) => trip.endIndex)).toEqual([
      36, 72,
    ]);
  });

  it('finds nothing in no points or a single point', () => {
    expect(detectTrips([])).toEqual([]);
    expect(detectTrips(new Track().points)).toEqual([]);
  });
});

describe('TripDetector', () => {
  it('returns each trip from the push that confirms its end', () => {
    const track = new Track().park(60).drive(600, 54).park(600);
    const detector = new TripDetector();
    const closedAt = track.points.flatMap((point, index) =>
      detector.push(point).map((trip) => ({ index, endIndex: trip.endIndex })),
    );
    // The stop circle is anchored at index 65 (650 s); 180 s later is index 83.
    expect(closedAt).toEqual([{ index: 83, endIndex: 66 }]);
    expect(detector.flush()).toEqual([]);
  });

  it('starts over after flush while indices keep counting', () => {
    const detector = new TripDetector();
    const first = new Track().park(60).drive(300, 54);
    first.points.forEach((point) => detector.push(point));
    const [ongoing] = detector.flush();
    expect([ongoing.startIndex, ongoing.endIndex, ongoing.complete]).toEqual([7, 36, false]);

    // Another track that begins before the flushed points ended: the detector forgot them.
    const second = new Track().silence(86_400).drive(300, 54).park(600);
    const trips = second.points.flatMap((point) => detector.push(point));
    expect(trips.map((trip) => [trip.startIndex, trip.endIndex, trip.startTime.toISOString()])).toEqual([
      [37 + 1, 37 + 30, iso(86_410)],
    ]);
  });

  it('accepts equal fix times and rejects a point older than the previous one', () => {
    const detector = new TripDetector();
    const [first, second] = new Track().park(10).points;
    detector.push(second);
    expect(detector.push({ ...second, id: 'again' })).toEqual([]);
    expect(() => detector.push(first)).toThrow(RangeError);
  });

  it('rejects invalid settings', () => {
    expect(() => new TripDetector({ movingSpeedKmh: 0 })).toThrow(RangeError);
    expect(() => new TripDetector({ minTripDistanceM: -1 })).toThrow(RangeError);
  });
});
