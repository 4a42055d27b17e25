/**
 * A year of one vehicle's reports for bench/query's `safety-score-year` scenario, as telemetry-ingest
 * would publish them (PositionReportedV1), so that query-api's own projection computes the insights
 * from them: nothing here writes an activity row or a driving event.
 *
 * The vehicle is a commuter car around Berlin. On a weekday it drives to work in the morning and
 * back in the evening, sometimes with an errand at midday; at weekends it makes zero to two longer
 * trips. While the ignition is on the tracker reports every 5 s (engine start with its cranking dip,
 * city driving with traffic-light stops and idling, highway stretches above the 100 km/h speeding
 * limit on the longer trips, a minute or two of idling before the ignition goes off). While parked it
 * sends a heartbeat every 10 minutes with its battery's voltage. Now and then the driver brakes,
 * accelerates or corners harshly: the tracker then sends an extra fix 2–3 s after the previous one
 * (as trackers do on an accelerometer event), strong enough for the shared detection in @fleet/motion.
 *
 * Deterministic for a seed: times are produced relative to the first day, so a dry run finds how many
 * days `count` positions cover, and the real run starts that many days before today.
 */
import { randomUUID } from 'node:crypto';
import { PositionReportedV1 } from '@fleet/contracts';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const HOME = { lat: 52.52, lng: 13.405 };
/** Trips head back towards home once the car is farther than this, degrees (about 30 km). */
const ROAM_DEGREES = 0.3;
const DRIVING_REPORT_MS = 5_000;
const PARKED_REPORT_MS = 10 * MINUTE_MS;

/** A small seeded generator (mulberry32): the same seed gives the same year. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** What the bench reports of the generated year, beside the rows the projection wrote. */
export interface YearHistoryFacts {
  positions: number;
  days: number;
  trips: number;
  /** Fixes sent as a harsh manoeuvre's extra report (each should become one driving event). */
  harshManoeuvres: number;
  /** Fixes above the speeding limit. */
  speedingFixes: number;
}

interface Trip {
  /** Minutes after the local midnight of its day. */
  departMinute: number;
  drivingMinutes: number;
  /** Minutes of the trip on a highway, in its middle. */
  highwayMinutes: number;
}

/** The trips of day number `day` (day 0 a Monday). */
function tripsOf(day: number, random: () => number): Trip[] {
  const between = (low: number, high: number) => low + random() * (high - low);
  const trip = (departMinute: number, drivingMinutes: number, highwayShare: number): Trip => ({
    departMinute,
    drivingMinutes,
    highwayMinutes: random() < highwayShare ? drivingMinutes * between(0.3, 0.6) : 0,
  });
  if (day % 7 >= 5) {
    const trips: Trip[] = [];
    const count = Math.floor(random() * 3);
    for (let i = 0; i < count; i++) trips.push(trip(between(9, 11) * 60 + i * 300, between(35, 115), 0.5));
    return trips;
  }
  const trips = [trip(between(6.5, 8) * 60, between(35, 65), 0.4)];
  if (random() < 0.45) trips.push(trip(between(12, 13.5) * 60, between(15, 35), 0));
  trips.push(trip(between(16.5, 18.5) * 60, between(35, 70), 0.4));
  return trips;
}

/**
 * The position events of one vehicle: `count` of them (fewer if `endMs` comes first), the first day
 * starting at `startMs`, which should be a local midnight (day 0 is taken for a Monday).
 */
export function* yearOfPositions(options: {
  vehicleId: number;
  imei: string;
  count: number;
  startMs: number;
  endMs?: number;
  seed?: number;
  facts?: YearHistoryFacts;
}): Generator<PositionReportedV1> {
  const facts = options.facts ?? { positions: 0, days: 0, trips: 0, harshManoeuvres: 0, speedingFixes: 0 };
  const endMs = options.endMs ?? Infinity;
  facts.positions = 0;
  for (const event of commuterReports(options, facts)) {
    if (facts.positions >= options.count || Date.parse(event.fixTime) >= endMs) break;
    facts.positions++;
    if ((event.speedKmh ?? 0) > 100) facts.speedingFixes++;
    yield event;
  }
}

/** The commuter's reports, day after day, without end. */
function* commuterReports(
  options: { vehicleId: number; imei: string; startMs: number; seed?: number },
  facts: YearHistoryFacts,
): Generator<PositionReportedV1> {
  const { vehicleId, imei, startMs } = options;
  const random = seededRandom(options.seed ?? 20);
  const between = (low: number, high: number) => low + random() * (high - low);
  let lat = HOME.lat;
  let lng = HOME.lng;
  let course = 0;
  let odometerM = 48_000_000;
  let now = startMs;
  /** When the ignition last went off (for the parked voltage's settling). */
  let offSince = startMs - DAY_MS;
  const fix = (speedKmh: number, ignition: boolean, powerV: number): PositionReportedV1 => ({
    eventId: randomUUID(),
    vehicleId,
    imei,
    fixTime: new Date(now).toISOString(),
    receivedAt: new Date(now + 900).toISOString(),
    lat: Math.round(lat * 1e6) / 1e6,
    lng: Math.round(lng * 1e6) / 1e6,
    speedKmh: Math.round(speedKmh * 10) / 10,
    course: ((Math.round(course) % 360) + 360) % 360,
    ignition,
    powerV: Math.round(powerV * 100) / 100,
    satellites: 9,
    odometerM: Math.round(odometerM),
  });
  /** Moves the car for `ms` at `speedKmh` along its course. */
  const move = (ms: number, speedKmh: number) => {
    const metres = (speedKmh / 3.6) * (ms / 1000);
    odometerM += metres;
    lat += (metres * Math.cos((course * Math.PI) / 180)) / 111_320;
    lng += (metres * Math.sin((course * Math.PI) / 180)) / (111_320 * Math.cos((lat * Math.PI) / 180));
    now += ms;
  };
  // The battery ages over the year: its resting voltage drifts from 12.65 V down by 0.25 V.
  const restingVolts = () => 12.65 - (0.25 * (now - startMs)) / (365 * DAY_MS) + between(-0.03, 0.03);
  /** Heartbeats while parked, up to (not at) `until`. */
  function* parked(until: number): Generator<PositionReportedV1> {
    while (now + PARKED_REPORT_MS < until) {
      now += PARKED_REPORT_MS;
      yield fix(0, false, now - offSince >= 20 * MINUTE_MS ? restingVolts() : 12.9);
    }
  }

  for (let day = 0; ; day++) {
    facts.days = day + 1;
    const midnight = startMs + day * DAY_MS;
    for (const trip of tripsOf(day, random)) {
      const departAt = midnight + trip.departMinute * MINUTE_MS;
      if (departAt <= now) continue;
      yield* parked(departAt);
      now = departAt;
      facts.trips++;
      // Heading: anywhere near home, back towards it once far away.
      const away = Math.hypot(lat - HOME.lat, lng - HOME.lng);
      course =
        away > ROAM_DEGREES ? (Math.atan2(HOME.lng - lng, HOME.lat - lat) * 180) / Math.PI : between(0, 360);
      // Engine start: the cranking dip, then the alternator.
      yield fix(0, true, between(9.9, 10.8));
      now += 2_000;
      yield fix(0, true, 14.2);
      const tripEnd = now + trip.drivingMinutes * MINUTE_MS;
      const highwayFrom = now + ((trip.drivingMinutes - trip.highwayMinutes) / 2) * MINUTE_MS;
      const highwayTo = highwayFrom + trip.highwayMinutes * MINUTE_MS;
      // The highway pace of this trip: under the 100 km/h speeding limit or over it.
      const cruise = between(92, 122);
      let speed = 0;
      let stoppedUntil = 0;
      while (now < tripEnd) {
        const onHighway = now >= highwayFrom && now < highwayTo;
        let target = onHighway ? cruise + between(-3, 3) : between(30, 55);
        if (!onHighway && now >= stoppedUntil && speed > 20 && random() < 1 / 50) {
          stoppedUntil = now + between(20, 60) * 1000; // a red light
        }
        if (now < stoppedUntil) target = 0;
        const harsh = random();
        if (speed > 45 && harsh < 1 / 2_000) {
          // Harsh braking: 30–45 km/h less 2 s after a regular report (0.42–0.64 g).
          move(DRIVING_REPORT_MS, speed);
          yield fix(speed, true, 14.1);
          const drop = between(30, 45);
          move(2_000, speed - drop / 2);
          speed -= drop;
          facts.harshManoeuvres++;
          yield fix(speed, true, 14.1);
          continue;
        }
        if (speed < 15 && now >= stoppedUntil && harsh < 1 / 80) {
          // Harsh acceleration away from a stop: 25–35 km/h more 2 s later (0.35–0.5 g).
          move(DRIVING_REPORT_MS, speed);
          yield fix(speed, true, 14.1);
          const gain = between(25, 35);
          move(2_000, speed + gain / 2);
          speed += gain;
          facts.harshManoeuvres++;
          yield fix(speed, true, 14.1);
          continue;
        }
        if (!onHighway && speed > 35 && harsh > 1 - 1 / 2_500) {
          // Harsh cornering: a right angle in 3 s (at 35–55 km/h, 0.5–0.8 g).
          move(DRIVING_REPORT_MS, speed);
          yield fix(speed, true, 14.1);
          course += random() < 0.5 ? 90 : -90;
          move(3_000, speed);
          facts.harshManoeuvres++;
          yield fix(speed, true, 14.1);
          continue;
        }
        // Gentle: at most 12 km/h of change per report (0.07 g), a few degrees of drift.
        speed = Math.max(0, speed + Math.max(-12, Math.min(12, target - speed)));
        course += between(-8, 8);
        move(DRIVING_REPORT_MS, speed);
        yield fix(speed, true, 14.1);
      }
      // Slowing down, a minute or two of idling, ignition off.
      while (speed > 0) {
        speed = Math.max(0, speed - 12);
        move(DRIVING_REPORT_MS, speed);
        yield fix(speed, true, 14.0);
      }
      const idleUntil = now + between(60, 150) * 1000;
      while (now < idleUntil) {
        now += DRIVING_REPORT_MS;
        yield fix(0, true, 13.9);
      }
      now += 2_000;
      offSince = now;
      yield fix(0, false, 12.9);
    }
    yield* parked(midnight + DAY_MS);
  }
}
