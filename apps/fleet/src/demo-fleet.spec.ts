import { alertTypeIds, AlertTypes, settingsWithDefaults } from '@fleet/contracts';
import { shapeContains } from '@fleet/geo';
import { detectDrivingEvents, DrivingEventKind, DrivingEventState, NO_DRIVING_EVENTS } from '@fleet/motion';
import {
  Condition,
  ConditionLimits,
  ConditionTracker,
  fleetTraits,
  FleetSimulator,
  RoadNetwork,
  SimulatedReport,
  type DemoAlert,
  DEMO_ALERTS,
  demoGeofences,
  DEMO_VEHICLES,
  demoImei,
} from '@fleet/simulator';
import { DEMO_REST_HISTORY_DAYS, demoSimulatorOptions } from './demo-fleet';

const NOW = Date.UTC(2026, 10, 23, 10, 0, 0);
const network = new RoadNetwork();
const imeis = DEMO_VEHICLES.map((_, index) => demoImei(index));

/**
 * What the demo fleet reports over `seconds` from its start, as `npm start` runs it (5 s interval): the
 * nights at rest first when `restHistoryDays` is not 0 (a first start), then the history fill.
 */
async function demoReports(seconds: number, restHistoryDays = 0): Promise<SimulatedReport[]> {
  const reports: SimulatedReport[] = [];
  const send = async (report: SimulatedReport) => {
    reports.push(report);
    return { status: 200, body: '' };
  };
  await new FleetSimulator({
    ...demoSimulatorOptions(imeis, { intervalSeconds: 5, historySeconds: seconds, restHistoryDays }, send),
    durationSeconds: seconds,
    clock: () => NOW,
  }).run();
  return reports;
}

/** The vehicles a demo configuration covers: mapped to its company, and listed or tagged (or all). */
function covered(alert: DemoAlert): string[] {
  return DEMO_VEHICLES.filter(
    (vehicle) =>
      vehicle.companies.includes(alert.company) &&
      ((!alert.vehicles?.length && !alert.tags?.length) ||
        alert.vehicles?.includes(vehicle.name) ||
        alert.tags?.some((tag) => vehicle.tags.includes(tag))),
  ).map((vehicle) => imeis[DEMO_VEHICLES.indexOf(vehicle)]);
}

const conditionOfType: Record<number, Condition> = {
  [AlertTypes.powerCut.id]: 'powerCut',
  [AlertTypes.ignitionOn.id]: 'ignitionOn',
  [AlertTypes.ignitionOff.id]: 'ignitionOff',
  [AlertTypes.lowBattery.id]: 'lowVoltage',
  [AlertTypes.overspeed.id]: 'speeding',
  [AlertTypes.harshBraking.id]: 'harshBraking',
  [AlertTypes.harshAcceleration.id]: 'harshAcceleration',
  [AlertTypes.excessiveIdling.id]: 'longIdle',
  [AlertTypes.charging.id]: 'chargingStarts',
  [AlertTypes.exceedRpm.id]: 'highRpm',
  [AlertTypes.exceedEngineTemperature.id]: 'overheat',
};

/** Judged as the configuration's settings say (the catalog's defaults filled in). */
function limitsOf(alert: DemoAlert): Partial<ConditionLimits> {
  const settings = settingsWithDefaults(alert.alertTypeId, alert.settings ?? {});
  return {
    ...(settings.maxSpeedKmh !== undefined && { maxSpeedKmh: settings.maxSpeedKmh }),
    ...(settings.minDurationSeconds !== undefined && { speedingSeconds: settings.minDurationSeconds }),
    ...(settings.thresholdG !== undefined && { harshG: settings.thresholdG }),
    ...(settings.idleMinutes !== undefined && { idleSeconds: settings.idleMinutes * 60 }),
    ...(settings.maxRpm !== undefined && { maxRpm: settings.maxRpm }),
    ...(settings.maxCoolantTempC !== undefined && { maxCoolantC: settings.maxCoolantTempC }),
    ...(alert.alertTypeId === AlertTypes.lowBattery.id && {
      lowVoltageV: settings.thresholdV,
      lowVoltageRearmV: settings.thresholdV! + 0.3,
    }),
    ...(alert.alertTypeId === AlertTypes.powerCut.id && { powerCutV: settings.thresholdV }),
  };
}

/**
 * Minutes from the start at which the reports give the configuration something to fire on: a reference
 * reading of the reports (a geofence's edge crossed, a ConditionTracker episode), not the alert engine.
 */
function firings(alert: DemoAlert, reports: SimulatedReport[]): number[] {
  const vehicles = covered(alert);
  const own = reports.filter((report) => vehicles.includes(report.imei));
  const minute = (report: SimulatedReport) => (report.time - own[0].time) / 60_000;
  if (alert.geofence !== undefined) {
    const shape = demoGeofences(network).find(
      (geofence) => geofence.company === alert.company && geofence.name === alert.geofence,
    )!.shape;
    const entering = alert.alertTypeId === AlertTypes.geofenceEnter.id;
    const inside = new Map<string, boolean>();
    return own.flatMap((report) => {
      const was = inside.get(report.imei);
      const is = shapeContains(shape, report);
      inside.set(report.imei, is);
      return was !== undefined && was !== is && is === entering ? [minute(report)] : [];
    });
  }
  const tracker = new ConditionTracker(network, limitsOf(alert));
  const condition = conditionOfType[alert.alertTypeId];
  return own.flatMap((report) => (tracker.observe(report).includes(condition) ? [minute(report)] : []));
}

describe('the demo fleet and the demo alerts', () => {
  let firstHour: SimulatedReport[];

  beforeAll(async () => {
    firstHour = await demoReports(60 * 60);
  });

  // After a restart that is the start of the live reports; on the first start, that of the history fill
  // (the nights at rest before it change nothing of it: rest-history.spec.ts).
  it('gives every alert type something to fire on in the top company within a quarter hour of the start', () => {
    const top = DEMO_ALERTS.filter((alert) => alert.company === 'Demo Logistics');
    const types = new Set(
      top
        .filter((alert) => firings(alert, firstHour).some((minute) => minute <= 15))
        .map((alert) => alert.alertTypeId),
    );
    const silent = alertTypeIds.filter((id) => !types.has(id));
    // Moving while the sun is down depends on the clock, not on the fleet.
    expect(silent).toEqual([AlertTypes.drivingAfterDark.id]);
  });

  it('gives every demo configuration something to fire on within the first hour', () => {
    const silent = DEMO_ALERTS.filter(
      (alert) =>
        alert.alertTypeId !== AlertTypes.drivingAfterDark.id && firings(alert, firstHour).length === 0,
    ).map((alert) => `${alert.company}: ${alert.name}`);
    expect(silent).toEqual([]);
  });

  it('tags the electric vehicles as electric, and no other vehicle', () => {
    expect(DEMO_VEHICLES.map((vehicle) => vehicle.tags.includes('electric'))).toEqual(
      DEMO_VEHICLES.map((_, index) => fleetTraits(index).electric),
    );
  });

  it("has the top company's three vehicles on the road when the default two hours of history end", async () => {
    const history = await demoReports(7_200);
    const topVehicles = DEMO_VEHICLES.flatMap((vehicle, index) =>
      vehicle.companies.includes('Demo Logistics') ? [imeis[index]] : [],
    );
    const last = topVehicles.map((imei) => history.filter((report) => report.imei === imei).at(-1)!);
    expect(last.map((report) => report.speedKmh > 0)).toEqual([true, true, true]);
  });
});

/** The top company's vehicles, by index: those mapped to it. */
const TOP = DEMO_VEHICLES.flatMap((vehicle, index) =>
  vehicle.companies.includes('Demo Logistics') ? [index] : [],
);

/** A vehicle's resting samples as the insights take them: ignition off for 15 minutes, 5–32 V. */
function restingSamples(own: SimulatedReport[]): SimulatedReport[] {
  let offSince: number | undefined;
  return own.filter((report, i) => {
    if (report.ignition) offSince = undefined;
    else if (i === 0 || own[i - 1].ignition) offSince = report.time;
    return !report.ignition && report.time - offSince! >= 15 * 60_000 && report.powerV > 5;
  });
}

/** Least squares through the daily (UTC) means of resting samples: slope V/day, and the line at `at`. */
function restingTrend(
  samples: SimulatedReport[],
  at: number,
): { slope: number; value: number; days: number } {
  const byDay = new Map<number, number[]>();
  for (const sample of samples) {
    const day = Math.floor(sample.time / 86_400_000);
    byDay.set(day, [...(byDay.get(day) ?? []), sample.powerV]);
  }
  const points = [...byDay].map(([x, volts]) => ({ x, y: volts.reduce((a, b) => a + b, 0) / volts.length }));
  const mx = points.reduce((sum, p) => sum + p.x, 0) / points.length;
  const my = points.reduce((sum, p) => sum + p.y, 0) / points.length;
  const slope =
    points.reduce((sum, p) => sum + (p.x - mx) * (p.y - my), 0) /
    points.reduce((sum, p) => sum + (p.x - mx) ** 2, 0);
  return { slope, value: my + slope * (at / 86_400_000 - mx), days: points.length };
}

describe("the demo fleet's first start and the insights of the top company", () => {
  let reports: SimulatedReport[];
  const own = (index: number) => reports.filter((report) => report.imei === imeis[index]);
  const historyStart = NOW - 7_200_000;

  beforeAll(async () => {
    reports = await demoReports(7_200, DEMO_REST_HISTORY_DAYS);
  });

  it('sends two weeks of nights at rest before the history, through the same port', () => {
    for (const index of DEMO_VEHICLES.keys()) {
      const before = own(index).filter((report) => report.time < historyStart);
      expect(before).toHaveLength(DEMO_REST_HISTORY_DAYS * 7);
      expect(before[0].time).toBeGreaterThan(historyStart - (DEMO_REST_HISTORY_DAYS + 1) * 86_400_000);
    }
  });

  it('drives with harsh braking, acceleration, cornering and speeding in the history', () => {
    const counts: Partial<Record<DrivingEventKind, number>> = {};
    for (const index of TOP) {
      let state: DrivingEventState = NO_DRIVING_EVENTS;
      let previous: SimulatedReport | undefined;
      const seen = new Set<string>();
      for (const report of own(index).filter((r) => r.time >= historyStart)) {
        const sample = (r: SimulatedReport) => ({ timeMs: r.time, speedKmh: r.speedKmh, course: r.course });
        const detected = detectDrivingEvents(state, previous && sample(previous), sample(report));
        state = detected.state;
        for (const event of detected.events) {
          if (seen.has(`${event.kind}@${event.at}`)) continue;
          seen.add(`${event.kind}@${event.at}`);
          counts[event.kind] = (counts[event.kind] ?? 0) + 1;
        }
        previous = report;
      }
    }
    const kinds = ['harshBraking', 'harshAcceleration', 'harshCornering', 'speeding'] as const;
    expect(Object.fromEntries(kinds.map((kind) => [kind, (counts[kind] ?? 0) > 0]))).toEqual(
      Object.fromEntries(kinds.map((kind) => [kind, true])),
    );
  });

  it("shows the third vehicle's battery weakening, 0.02 V a day, and the first one's sound", () => {
    expect(TOP).toContain(2);
    expect(fleetTraits(2).weakeningBattery).toBe(true);
    const weak = restingTrend(restingSamples(own(2)), historyStart);
    expect(weak.days).toBeGreaterThanOrEqual(DEMO_REST_HISTORY_DAYS);
    expect(weak.slope).toBeCloseTo(-0.02, 3);
    // Fair (12.2–12.4 V at rest), about 12 days from the critical 12.0 V.
    expect(weak.value).toBeGreaterThan(12.2);
    expect(weak.value).toBeLessThan(12.3);
    expect((weak.value - 12.0) / 0.02).toBeGreaterThan(10);
    expect((weak.value - 12.0) / 0.02).toBeLessThan(15);
    const sound = restingTrend(restingSamples(own(0)), historyStart);
    expect(Math.abs(sound.slope)).toBeLessThan(0.003);
    expect(sound.value).toBeGreaterThan(12.5);
  });

  it('dips at every engine start, deeper on the weakening battery', () => {
    // A vehicle that begins the history on the road started before it: its first report there is no start.
    const cranks = (index: number) =>
      own(index).flatMap((report, i, all) =>
        i > 0 && !all[i - 1].ignition && report.ignition && all[i - 1].time >= historyStart
          ? [report.powerV]
          : [],
      );
    const mornings = (index: number) =>
      own(index).filter(
        (report, i, all) => i > 0 && !all[i - 1].ignition && report.ignition && report.time < historyStart,
      );
    expect(mornings(0)).toHaveLength(DEMO_REST_HISTORY_DAYS);
    expect(mornings(2)).toHaveLength(DEMO_REST_HISTORY_DAYS);
    expect(mornings(0).filter((report) => !(report.powerV >= 10 && report.powerV <= 11))).toEqual([]);
    expect(mornings(2).filter((report) => !(report.powerV >= 9.2 && report.powerV <= 9.8))).toEqual([]);
    // The starts of the history alike; the first vehicle's loose connector may cut a reading to 0 V.
    const sound = cranks(0).filter((volts) => volts > 0);
    expect(sound.length).toBeGreaterThan(0);
    expect(sound.filter((volts) => !(volts >= 10 && volts <= 11))).toEqual([]);
    expect(cranks(2).length).toBeGreaterThan(0);
    expect(cranks(2).filter((volts) => !(volts >= 9.2 && volts <= 9.8))).toEqual([]);
  });

  it("lists the first vehicle's engine codes, the misfire inactive by the end of the history", () => {
    expect(TOP).toContain(0);
    const running = own(0).filter((report) => report.ignition);
    const listing = (code: string) => running.filter((report) => report.dtcCodes?.includes(code));
    // Seen since the first night at rest; the misfire not after 30 minutes of the history.
    for (const code of ['P0301', 'P0171', 'P1A2B']) expect(listing(code)[0].time).toBeLessThan(historyStart);
    const misfire = listing('P0301').at(-1)!.time;
    expect(misfire).toBeLessThan(historyStart + 30 * 60_000);
    expect(running.at(-1)!.dtcCodes).toEqual(['P0171', 'P1A2B']);
    // Inactive once the engine has run 20 minutes without it (pairs of running fixes ≤ 5 min apart).
    const after = own(0).filter((report) => report.time > misfire);
    let engineS = 0;
    for (let i = 1; i < after.length; i++) {
      const gap = after[i].time - after[i - 1].time;
      if (after[i].ignition && after[i - 1].ignition && gap <= 300_000) engineS += gap / 1000;
    }
    expect(engineS).toBeGreaterThan(20 * 60);
  });
});
