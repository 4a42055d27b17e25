import { alertTypeIds, AlertTypes, settingsWithDefaults } from '@fleet/contracts';
import { shapeContains } from '@fleet/geo';
import {
  Condition,
  ConditionLimits,
  ConditionTracker,
  fleetTraits,
  FleetSimulator,
  RoadNetwork,
  SimulatedReport,
} from '@fleet/simulator';
import { DemoAlert, DEMO_ALERTS, demoGeofences } from './demo-alerts';
import { DEMO_FLEET_SEED } from './demo-fleet';
import { DEMO_VEHICLES, demoImei } from './demo-tenant';

const NOW = Date.UTC(2026, 10, 23, 10, 0, 0);
const network = new RoadNetwork();
const imeis = DEMO_VEHICLES.map((_, index) => demoImei(index));

/** What the demo fleet reports over `seconds` from its start, as `npm start` runs it (5 s interval). */
async function demoReports(seconds: number): Promise<SimulatedReport[]> {
  const reports: SimulatedReport[] = [];
  await new FleetSimulator({
    imeis,
    intervalSeconds: 5,
    durationSeconds: seconds,
    historySeconds: seconds,
    seed: DEMO_FLEET_SEED,
    send: async (report) => {
      reports.push(report);
      return { status: 200, body: '' };
    },
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

  // After a restart that is the start of the live reports; on the first start, that of the history fill.
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
