import { haversineMetres } from '@fleet/geo';
import { lateralAccelerationG } from '@fleet/motion';
import { Condition, ConditionTracker } from './alert-conditions';
import { Random } from './random';
import { RoadNetwork } from './road-network';
import { SimulatedReport } from './simulated-report';
import { ENGINE_CODE_CLEARED_AFTER_S, ENGINE_CODES } from './engine-codes';
import { SimulatedVehicle } from './simulated-vehicle';
import { fleetTraits } from './vehicle-traits';

const START = Date.UTC(2026, 10, 2, 6, 0, 0);
const network = new RoadNetwork();

/**
 * `hours` of `count` vehicles reporting every `intervalS` seconds, and at each engine start; traits
 * dealt as FleetSimulator does.
 */
function simulate(count: number, intervalS: number, hours = 6, seed = 7): SimulatedReport[][] {
  const random = new Random(seed);
  return Array.from({ length: count }, (_, index) => {
    const vehicle = new SimulatedVehicle(
      `35000000000${1000 + index}`,
      network,
      random.fork(index),
      START,
      index,
      fleetTraits(index),
    );
    const reports: SimulatedReport[] = [];
    for (let t = START; t <= START + hours * 3_600_000; t += intervalS * 1000) {
      let report = vehicle.advanceToNextReport(t);
      while (report.time < t) {
        reports.push(report);
        report = vehicle.advanceToNextReport(t);
      }
      reports.push(report);
    }
    return reports;
  });
}

/** The lateral acceleration of a pair of consecutive fixes as the insights measure it (@fleet/motion). */
const lateralG = (before: SimulatedReport, after: SimulatedReport) =>
  lateralAccelerationG(
    { timeMs: before.time, speedKmh: before.speedKmh, course: before.course },
    { timeMs: after.time, speedKmh: after.speedKmh, course: after.course },
  );

/** The engine starts of a track: the report at the start and the one before it (ignition off). */
const startsOf = (track: SimulatedReport[]) =>
  track
    .slice(1)
    .flatMap((after, i) => (!track[i].ignition && after.ignition ? [[track[i], after] as const] : []));

/** When each condition began in a track, minutes after START. */
function conditionsOf(track: SimulatedReport[]): { condition: Condition; minute: number }[] {
  const tracker = new ConditionTracker(network);
  return track.flatMap((report) =>
    tracker.observe(report).map((condition) => ({ condition, minute: (report.time - START) / 60_000 })),
  );
}

// Checks over tens of thousands of reports collect the offenders and assert once (expect() per report is slow).
const fleet = simulate(20, 5);
const reports = fleet.flat();
const pairs = fleet.flatMap((track) => track.slice(1).map((report, i) => [track[i], report] as const));
const electric = fleet.filter((_, index) => fleetTraits(index).electric).flat();
const combustion = fleet.filter((_, index) => !fleetTraits(index).electric).flat();
const conditions = fleet.map(conditionsOf);

describe('a simulated vehicle', () => {
  it('never moves further between two reports than it could drive, and its odometer covers the way', () => {
    // 115 km/h for 5 s is 160 m; the way along the streets is never shorter than the straight line.
    const offenders = pairs.filter(([before, after]) => {
      const straight = haversineMetres(before, after);
      const driven = after.odometerM - before.odometerM;
      return straight > 160 || driven < straight - 0.3 || driven > 160;
    });
    expect(offenders).toEqual([]);
  });

  it('reports an odometer that equals the distance between its positions when they are close together', () => {
    const [track] = simulate(1, 1, 2);
    let straight = 0;
    for (let i = 1; i < track.length; i++) straight += haversineMetres(track[i - 1], track[i]);
    const driven = track[track.length - 1].odometerM - track[0].odometerM;
    expect(driven).toBeGreaterThan(5_000);
    // Cutting a corner within one second loses centimetres; rounding to 0.1 m adds a little noise.
    expect(Math.abs(driven - straight) / driven).toBeLessThan(0.005);
  });

  it('parks with the ignition off: standing still, doors locked, and only then', () => {
    const offenders = pairs.filter(
      ([before, after]) =>
        (!after.ignition &&
          (after.speedKmh !== 0 ||
            after.motion ||
            after.driver !== undefined ||
            (!before.ignition && (after.lat !== before.lat || after.lng !== before.lng)))) ||
        (after.speedKmh > 0 && !after.ignition) ||
        (after.doorLocked && after.ignition),
    );
    expect(offenders).toEqual([]);
    expect(reports.some((report) => report.doorLocked)).toBe(true);
  });

  it('cycles its ignition, stops at lights with the engine running, and drives a good part of a shift', () => {
    for (const track of fleet) {
      expect(track.some((report) => report.ignition)).toBe(true);
      expect(track.some((report) => !report.ignition)).toBe(true);
      const moving = track.filter((report) => report.speedKmh > 0).length;
      expect(moving / track.length).toBeGreaterThan(0.15);
    }
    const idling = reports.filter((report) => report.ignition && report.speedKmh === 0);
    expect(idling.length).toBeGreaterThan(100);
  });

  it('speeds on arterial roads now and then, within what a van can do', () => {
    const speeds = reports.map((report) => report.speedKmh);
    expect(speeds.filter((speed) => speed > 90).length).toBeGreaterThan(10);
    expect(Math.max(...speeds)).toBeLessThanOrEqual(115);
    // Most driving is on side streets at city speeds.
    const moving = speeds.filter((speed) => speed > 5);
    expect(moving.filter((speed) => speed <= 55).length / moving.length).toBeGreaterThan(0.5);
  });

  it('drives into named areas and out again', () => {
    const left = new Set<string>();
    for (const track of fleet) {
      const inside = track.map((report) => network.areasAt(report).map((area) => area.name));
      for (let i = 1; i < inside.length; i++) {
        for (const name of inside[i - 1]) if (!inside[i].includes(name)) left.add(name);
      }
    }
    expect(left.size).toBeGreaterThanOrEqual(3);
  });

  it('reports every engine start at its moment, with the cranking dip, and the alternator after it', () => {
    let cranks = 0;
    const offenders = fleet.flatMap((track, index) => {
      const { electric, weakeningBattery } = fleetTraits(index);
      const [low, high] = weakeningBattery ? [9.2, 9.8] : [10.0, 11.0];
      return startsOf(track).flatMap(([before, start]) => {
        const after = track[track.indexOf(start) + 1];
        const problems: string[] = [];
        if (start.speedKmh !== 0 || start.doorLocked) problems.push('not standing at the wheel');
        // Nothing to see while the tracker's power is cut.
        if (before.powerV === 0 || start.powerV === 0) return problems;
        if (electric) {
          if (!(start.powerV >= 13.6)) problems.push(`electric ${start.powerV}`);
        } else {
          cranks += 1;
          if (!(start.powerV >= low && start.powerV <= high)) problems.push(`crank ${start.powerV}`);
          if (!(before.powerV > start.powerV + 1)) problems.push(`rest ${before.powerV} → ${start.powerV}`);
        }
        const alternator = after?.ignition && after.powerV > 0 && after.time - start.time <= 5_000;
        if (alternator && !(after.powerV >= 13.6 && after.powerV <= 14.2))
          problems.push(`after ${after.powerV}`);
        return problems.map((problem) => `${index}@${(start.time - START) / 1000}: ${problem}`);
      });
    });
    expect(offenders).toEqual([]);
    expect(cranks).toBeGreaterThan(40);
    // Most starts fall between two regular reports (every 5 s from START): reported on their own.
    const between = fleet.flatMap(startsOf).filter(([, start]) => (start.time - START) % 5_000 !== 0);
    expect(between.length).toBeGreaterThan(cranks / 2);
    // Running, the alternator holds 13.6–14.2 V but for the cranks, and the short dips and cuts of incidents.
    const running = reports.filter((report) => report.ignition && report.speedKmh > 0);
    const low = running.filter((report) => report.powerV < 13.5);
    expect(low.length / running.length).toBeLessThan(0.05);
    expect(running.filter((report) => report.powerV > 14.2)).toEqual([]);
  });

  it("rests at its battery's resting voltage 15 minutes after the engine stopped: a weakening one lower", () => {
    const resting = fleet.map((track) => {
      let offSince: number | undefined;
      return track.filter((report, i) => {
        if (report.ignition) offSince = undefined;
        else if (i > 0 && track[i - 1].ignition) offSince = report.time;
        return (
          !report.ignition &&
          offSince !== undefined &&
          report.time - offSince >= 15 * 60_000 &&
          report.powerV > 0
        );
      });
    });
    const outside = resting.flatMap((track, index) => {
      // Six hours of a 0.02 V/day decline: 0.005 V; the noise: 0.01 V; what is left of the surface charge.
      const [low, high] = fleetTraits(index).weakeningBattery ? [12.23, 12.27] : [12.54, 12.72];
      return track
        .filter((report) => !(report.powerV >= low && report.powerV <= high))
        .map((report) => `${index}: ${report.powerV}`);
    });
    expect(outside).toEqual([]);
    expect(resting.filter((track) => track.length > 0).length).toBeGreaterThan(10);
    // Stable: each vehicle's resting voltage stays within the noise and a few thousandths of drift.
    const spread = resting
      .filter((track) => track.length > 1)
      .map((track) => Math.max(...track.map((r) => r.powerV)) - Math.min(...track.map((r) => r.powerV)));
    expect(spread.filter((volts) => volts > 0.035)).toEqual([]);
  });

  it('lists the engine codes of the vehicle that has them while the ignition is on, one of them cleared', () => {
    const codes = (track: SimulatedReport[]) => [
      ...new Set(track.map((report) => report.dtcCodes?.join(','))),
    ];
    const [withCodes] = fleet;
    expect(fleetTraits(0).engineCodes).toBe(true);
    const before = withCodes.filter((report) => report.time - START < ENGINE_CODE_CLEARED_AFTER_S * 1000);
    const after = withCodes.filter((report) => report.time - START >= ENGINE_CODE_CLEARED_AFTER_S * 1000);
    expect(codes(before.filter((report) => report.ignition))).toEqual(['P0301,P0171,P1A2B']);
    expect(codes(after.filter((report) => report.ignition))).toEqual(['P0171,P1A2B']);
    expect(codes(withCodes.filter((report) => !report.ignition))).toEqual([undefined]);
    expect(ENGINE_CODES).toEqual(['P0301', 'P0171', 'P1A2B']);
    // The others: at most one random code each, for a few of them.
    const others = fleet
      .filter((_, index) => !fleetTraits(index).engineCodes)
      .map((track) => codes(track).filter((code) => code !== undefined));
    expect(others.filter((list) => list.length > 1 || list.some((code) => code!.includes(',')))).toEqual([]);
  });

  it('keeps fuel within the tank and readings within their documented ranges', () => {
    const offenders = reports.filter(
      (report) =>
        !(report.batteryLevel >= 0 && report.batteryLevel <= 100) ||
        !(report.signal >= 0 && report.signal <= 5) ||
        !(Number.isInteger(report.course) && report.course >= 0 && report.course < 360) ||
        !(report.powerV === 0 || (report.powerV >= 9.2 && report.powerV <= 14.2)),
    );
    expect(offenders).toEqual([]);
    expect(combustion.filter((report) => !(report.fuelLevel! >= 0 && report.fuelLevel! <= 100))).toEqual([]);
  });

  it('reads engine speed and coolant temperature of running combustion engines only, in their ranges', () => {
    const withEngine = (report: SimulatedReport) =>
      report.rpm !== undefined || report.coolantTempC !== undefined;
    expect(electric.filter(withEngine)).toEqual([]);
    expect(combustion.filter((report) => withEngine(report) !== report.ignition)).toEqual([]);
    const running = combustion.filter((report) => report.ignition);
    expect(
      running.filter(
        (report) =>
          !(report.rpm! >= 650 && report.rpm! <= 5_300) ||
          !(report.coolantTempC! >= 10 && report.coolantTempC! <= 115) ||
          (report.speedKmh === 0 && report.rpm! > 900 && report.rpm! <= 4_000),
      ),
    ).toEqual([]);
    // Warmed up, an engine runs at about 90 °C; above 105 °C and 4,000 rpm are the rare incidents.
    const warm = running.filter((report) => report.coolantTempC! > 85);
    expect(warm.filter((report) => report.coolantTempC! > 105).length / warm.length).toBeLessThan(0.1);
    expect(running.filter((report) => report.rpm! > 4_000).length / running.length).toBeLessThan(0.01);
  });

  it('charges an electric vehicle at its stops with the ignition off, and reports no fuel', () => {
    expect(electric.length).toBeGreaterThan(0);
    expect(
      electric.filter(
        (report) =>
          report.charging === undefined ||
          (report.charging && report.ignition) ||
          (report.chargerPowerKw !== undefined) !== report.charging ||
          report.fuelLevel !== undefined ||
          report.batteryRangeKm === undefined,
      ),
    ).toEqual([]);
    expect(
      combustion.filter((report) => report.charging !== undefined || report.chargerPowerKw !== undefined),
    ).toEqual([]);
    const evPairs = pairs.filter(([before]) => before.charging !== undefined);
    const charged = evPairs.filter(([before, after]) => before.charging && after.charging);
    expect(charged.length).toBeGreaterThan(0);
    expect(charged.filter(([before, after]) => after.batteryLevel < before.batteryLevel)).toEqual([]);
    expect(evPairs.filter(([before, after]) => !before.charging && after.charging).length).toBeGreaterThan(2);
  });

  it('goes through every alert condition within the first quarter of an hour, somewhere in the fleet', () => {
    const early = new Set(
      conditions
        .flat()
        .filter(({ minute }) => minute <= 15)
        .map(({ condition }) => condition),
    );
    expect([...early].sort()).toEqual(
      [
        'areaEntries',
        'areaExits',
        'chargingStarts',
        'harshAcceleration',
        'harshBraking',
        'highRpm',
        'ignitionOff',
        'ignitionOn',
        'longIdle',
        'lowVoltage',
        'overheat',
        'powerCut',
        'speeding',
      ].sort(),
    );
  });

  it('gives each vehicle every incident its kind can have, the rare ones rarely', () => {
    const shouldHave = (index: number): Condition[] => [
      'speeding',
      'harshBraking',
      'harshAcceleration',
      'longIdle',
      'lowVoltage',
      'ignitionOn',
      'ignitionOff',
      ...(fleetTraits(index).electric ? (['chargingStarts'] as const) : (['highRpm', 'overheat'] as const)),
      ...(fleetTraits(index).loosePowerConnector ? (['powerCut'] as const) : []),
    ];
    const missing = conditions.flatMap((seen, index) =>
      shouldHave(index)
        .filter((condition) => !seen.some((entry) => entry.condition === condition))
        .map((condition) => `${index}: ${condition}`),
    );
    expect(missing).toEqual([]);
    const count = (index: number, condition: Condition) =>
      conditions[index].filter((entry) => entry.condition === condition).length;
    const rare = fleet.flatMap((_, index) =>
      (['powerCut', 'highRpm', 'overheat'] as const)
        .filter((condition) => count(index, condition) > 4)
        .map((condition) => `${index}: ${count(index, condition)} × ${condition} in 6 h`),
    );
    expect(rare).toEqual([]);
    const cut = fleet.flatMap((_, index) => (count(index, 'powerCut') > 0 ? [index] : []));
    expect(cut).toEqual(fleet.flatMap((_, index) => (fleetTraits(index).loosePowerConnector ? [index] : [])));
  });

  it.each([1, 2, 3, 5])(
    'makes harsh manoeuvres that reports %i s apart see whole, and no others',
    (intervalS) => {
      const tracks = simulate(6, intervalS, 3);
      const seen = tracks.map(conditionsOf).flat();
      expect(seen.filter(({ condition }) => condition === 'harshBraking').length).toBeGreaterThanOrEqual(6);
      expect(seen.filter(({ condition }) => condition === 'harshAcceleration').length).toBeGreaterThanOrEqual(
        6,
      );
      // Only the incidents: an emergency stop from at least 85 km/h, a harsh start from standing.
      const harsh = tracks.flatMap((track) =>
        track.slice(1).flatMap((after, i) => {
          const before = track[i];
          const g = (after.speedKmh - before.speedKmh) / 3.6 / intervalS / 9.81;
          return Math.abs(g) >= 0.45 ? [{ before, after, g }] : [];
        }),
      );
      const starts = harsh.filter(
        ({ before, g }, i) =>
          i === 0 || harsh[i - 1].after !== before || Math.sign(harsh[i - 1].g) !== Math.sign(g),
      );
      expect(
        starts.filter(({ before, g }) => (g < 0 ? before.speedKmh < 85 : before.speedKmh !== 0)),
      ).toEqual([]);
    },
  );

  it.each([1, 2, 3, 5])(
    'takes ordinary turns gently and harsh corners hard, as reports %i s apart measure them',
    (intervalS) => {
      const tracks = intervalS === 5 ? fleet : simulate(8, intervalS, 3);
      // Runs of consecutive pairs at 0.25 g or more, with their strongest pair.
      const episodes: { peak: number; speedKmh: number; minute: number }[] = [];
      let slowest = 0;
      for (const track of tracks) {
        let open: (typeof episodes)[number] | undefined;
        for (let i = 1; i < track.length; i++) {
          const g = lateralG(track[i - 1], track[i]);
          const speedKmh = (track[i - 1].speedKmh + track[i].speedKmh) / 2;
          if (g !== undefined && speedKmh < 40) slowest = Math.max(slowest, g);
          if (g === undefined || g < 0.25) {
            open = undefined;
          } else if (!open) {
            open = { peak: g, speedKmh, minute: (track[i].time - START) / 60_000 };
            episodes.push(open);
          } else if (g > open.peak) {
            Object.assign(open, { peak: g, speedKmh });
          }
        }
      }
      // Every one is a harsh corner, taken at speed: no ordinary turn reaches 0.25 g.
      expect(episodes.filter(({ peak, speedKmh }) => peak < 0.45 || speedKmh < 55)).toEqual([]);
      expect(episodes.length).toBeGreaterThanOrEqual(8);
      // Ordinary turns are taken at 20 km/h at most, gradually.
      expect(slowest).toBeGreaterThan(0.05);
      expect(slowest).toBeLessThan(0.2);
      if (intervalS === 5) {
        // At the demo's interval each reads 0.5 g or more, the first within a quarter hour of the start.
        expect(episodes.filter(({ peak }) => peak < 0.5)).toEqual([]);
        expect(Math.min(...episodes.map(({ minute }) => minute))).toBeLessThanOrEqual(15);
      }
    },
  );

  it('is the same fleet for the same seed and another one for another seed', () => {
    expect(simulate(2, 30, 1)).toEqual(simulate(2, 30, 1));
    expect(simulate(2, 30, 1, 8)).not.toEqual(simulate(2, 30, 1));
  });
});

describe('a simulated vehicle carrying out commands', () => {
  /** A vehicle of seed 7 (the `index`-th or a later one) once it drives faster than 30 km/h, with a clock. */
  function drivingVehicle(first = 0) {
    for (let index = first; index < first + 20; index++) {
      const vehicle = new SimulatedVehicle(
        `35100000000${1000 + index}`,
        network,
        new Random(7).fork(index),
        START,
        index,
        fleetTraits(index),
      );
      for (let time = START; time < START + 600_000; time += 1000) {
        const report = vehicle.advanceTo(time);
        if (report.speedKmh > 30) return reporting(vehicle, report);
      }
    }
    throw new Error('no vehicle of the seed drives within ten minutes');
  }

  /** Reports of the vehicle from `report` on: the next one `stepS` later, or the first one matching. */
  function reporting(vehicle: SimulatedVehicle, report: SimulatedReport) {
    let time = report.time;
    const next = (stepS = 5) => vehicle.advanceTo((time += stepS * 1000));
    return {
      vehicle,
      report,
      next,
      /** The reports up to and including the first that matches, within six simulated hours. */
      until(matches: (report: SimulatedReport) => boolean, stepS = 5): SimulatedReport[] {
        const reports: SimulatedReport[] = [];
        for (let left = (6 * 3600) / stepS; left > 0; left--) {
          reports.push(next(stepS));
          if (matches(reports[reports.length - 1])) return reports;
        }
        throw new Error('not within six hours');
      },
    };
  }

  const last = (reports: SimulatedReport[]) => reports[reports.length - 1];

  it('locks and unlocks its doors on command; parking still locks them and the driver unlocks them', () => {
    const drive = drivingVehicle();
    expect([drive.report.doorLocked, drive.report.ignition]).toEqual([false, true]);
    expect(drive.vehicle.receive({ id: 'lock', type: 'doorLock', lock: true })).toBe('ok');
    // Locked while it drives on, until it stops with the ignition off.
    const driving = drive.until((report) => !report.ignition);
    // (At the stop the driver leaves them open for a delivery, or locks them parking.)
    expect(driving.slice(0, -1).every((report) => report.doorLocked)).toBe(true);
    // Back at the wheel after the stop: unlocked.
    expect(last(drive.until((report) => report.ignition)).doorLocked).toBe(false);
    // Parked at a later stop: locked, and unlocked from afar while it stands there.
    const parked = last(drive.until((report) => !report.ignition && report.doorLocked));
    expect(drive.vehicle.receive({ id: 'unlock', type: 'doorLock', lock: false })).toBe('ok');
    const after = drive.next(1);
    expect([after.doorLocked, after.ignition, after.lat, after.lng]).toEqual([
      false,
      false,
      parked.lat,
      parked.lng,
    ]);
  });

  it('rolls to a stop when immobilised, stays there with the engine off, and drives on when released', () => {
    const drive = drivingVehicle();
    expect(drive.vehicle.receive({ id: 'off', type: 'ignition', on: false })).toBe('ok');
    const stopping = drive.until((report) => report.speedKmh === 0, 1);
    // Normal braking (2.5 m/s², 9 km/h a second), never an emergency stop; the engine reported cut.
    const speeds = [drive.report, ...stopping].map((report) => report.speedKmh);
    expect(speeds.slice(1).filter((speed, i) => speeds[i] - speed > 9.1)).toEqual([]);
    expect(stopping.every((report) => !report.engineEnabled)).toBe(true);
    const stopped = last(stopping);
    // Two hours later it stands where it stopped, ignition off, engine immobilised.
    const standing = Array.from({ length: 720 }, () => drive.next(10));
    expect(
      standing.filter(
        (report) =>
          report.lat !== stopped.lat ||
          report.lng !== stopped.lng ||
          report.speedKmh !== 0 ||
          report.ignition ||
          report.engineEnabled,
      ),
    ).toEqual([]);
    expect(drive.vehicle.currentPhase).toBe('immobilised');
    expect(drive.vehicle.receive({ id: 'on', type: 'ignition', on: true })).toBe('ok');
    const restart = drive.until((report) => report.speedKmh > 0, 1);
    expect(restart.length).toBeLessThanOrEqual(10);
    expect(restart.every((report) => report.engineEnabled && report.ignition)).toBe(true);
    expect(drive.vehicle.currentPhase).toBe('driving');
  });

  it('immobilised while parked, does not start until released', () => {
    const drive = drivingVehicle();
    drive.until((report) => !report.ignition && report.doorLocked);
    drive.vehicle.receive({ id: 'off', type: 'ignition', on: false });
    // Longer than any parking: still standing with the ignition off.
    const parked = Array.from({ length: 3 * 360 }, () => drive.next(10));
    expect(parked.filter((report) => report.ignition || report.speedKmh > 0 || report.engineEnabled)).toEqual(
      [],
    );
    drive.vehicle.receive({ id: 'on', type: 'ignition', on: true });
    // Its stop is long over: the engine starts at once.
    expect(drive.next(1)).toMatchObject({ ignition: true, engineEnabled: true });
  });

  it('carries out a command once per id and answers a repeat with the first outcome', () => {
    const drive = drivingVehicle();
    expect(drive.vehicle.receive({ id: 'a', type: 'doorLock', lock: true })).toBe('ok');
    expect(drive.vehicle.receive({ id: 'b', type: 'doorLock', lock: false })).toBe('ok');
    // `a` handed out again (its acknowledgement was lost): acknowledged, not locked again.
    expect(drive.vehicle.receive({ id: 'a', type: 'doorLock', lock: true })).toBe('ok');
    expect(drive.next(1).doorLocked).toBe(false);
    expect(drive.vehicle.receive({ id: 'c', type: 'unsupported' })).toBe('failed');
    expect(drive.vehicle.receive({ id: 'c', type: 'unsupported' })).toBe('failed');
    expect(drive.vehicle.receive({ id: 'd', type: 'locate' })).toBe('ok');
  });
});
