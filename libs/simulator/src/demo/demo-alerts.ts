import { AlertSettings, AlertTypes } from '@fleet/contracts';
import { GeofenceShape } from '@fleet/geo';
import { RoadNetwork } from '../road-network';
import type { Polygon } from 'geojson';

/** A geofence as alert-engine's GeofencesService.create takes it: a circle or a GeoJSON polygon. */
export interface DemoGeofenceInput {
  name: string;
  circle?: { lat: number; lng: number; radiusM: number };
  polygon?: Polygon;
}

/** An alert configuration as alert-engine's AlertConfigurationsService.create takes it. */
export interface DemoAlertInput {
  name: string;
  alertTypeId: number;
  vehicleIds?: number[];
  tags?: string[];
  settings?: AlertSettings;
  isActive?: boolean;
}

/**
 * The alert-engine services the demo seeds through, only as far as the seeding uses them:
 * `GeofencesService` and `AlertConfigurationsService` of `@fleet/alert-engine-service` (their
 * `create`), with `list` giving a company's own geofences or configurations, all of them. The seeding
 * finds what an earlier start made by name, in the database, as the rest of the demo tenant does.
 */
export interface DemoAlertServices {
  geofences: {
    create(companyId: number, input: DemoGeofenceInput): Promise<{ id: number }>;
    list(companyId: number): Promise<readonly { id: number; name: string }[]>;
  };
  configurations: {
    create(companyId: number, input: DemoAlertInput): Promise<{ id: number }>;
    list(companyId: number): Promise<readonly { id: number; name: string; alertTypeId: number }[]>;
  };
}

/** What `.data/demo-credentials.json` lists of them (README.md, docs/auth.md). */
export interface DemoAlertCredentials {
  geofences: { id: number; companyId: number; name: string }[];
  alerts: { id: number; companyId: number; alertTypeId: number; name: string }[];
}

export interface DemoGeofence {
  /** The owning demo company, by name. */
  company: string;
  name: string;
  shape: GeofenceShape;
}

export interface DemoAlert {
  company: string;
  name: string;
  alertTypeId: number;
  /** Types 1 and 2: a geofence of the same company, by name. */
  geofence?: string;
  /** Demo vehicles by name; with `tags` both empty, every vehicle of the company. */
  vehicles?: string[];
  tags?: string[];
  settings?: AlertSettings;
}

const TOP = 'Demo Logistics';
const NORTH = 'Demo Logistics North';
const SOUTH = 'Demo Logistics South';
const HARBOUR = 'Demo Couriers Harbour';

/**
 * Geofences around the places the demo fleet drives through: a circle around each named area of the
 * simulator's street grid (vehicles go there half the time, so they enter and leave them all day),
 * and a diamond-shaped polygon over the inner city, which the arterial roads through the centre
 * cross in every direction. Its corners lie half-way between streets, so a vehicle crosses its edge
 * rather than driving along it.
 */
export function demoGeofences(network: RoadNetwork = new RoadNetwork()): DemoGeofence[] {
  const area = (name: string): GeofenceShape => {
    const found = network.areas.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`the simulator has no area "${name}"`);
    return { kind: 'circle', lat: found.center.lat, lng: found.center.lng, radiusM: found.radiusM };
  };
  const middle = (network.size - 1) / 2;
  const corner = (rows: number, cols: number) => {
    const { lat, lng } = network.position({ row: middle + rows, col: middle + cols });
    return [Number(lng.toFixed(6)), Number(lat.toFixed(6))];
  };
  // The western half of the grid, its edge half-way between the two middle columns.
  const edge = middle + 0.5;
  const westSide: Polygon = {
    type: 'Polygon',
    coordinates: [
      [
        corner(-edge, -edge),
        corner(-edge, 0.5),
        corner(edge, 0.5),
        corner(edge, -edge),
        corner(-edge, -edge),
      ],
    ],
  };
  const innerCity: Polygon = {
    type: 'Polygon',
    coordinates: [[corner(-4.5, 0), corner(0, 4.5), corner(4.5, 0), corner(0, -4.5), corner(-4.5, 0)]],
  };
  return [
    ...['Depot', 'City Centre', 'Harbour', 'Industrial Park', 'Retail Park'].map((name) => ({
      company: TOP,
      name,
      shape: area(name),
    })),
    { company: TOP, name: 'Inner City', shape: { kind: 'polygon', polygon: innerCity } },
    { company: TOP, name: 'West Side', shape: { kind: 'polygon', polygon: westSide } },
    // Geofences belong to one company: a sub-company draws its own.
    { company: NORTH, name: 'Inner City', shape: { kind: 'polygon', polygon: innerCity } },
    { company: HARBOUR, name: 'Harbour', shape: area('Harbour') },
  ];
}

/**
 * Configurations of every catalog type for the top company, covering its vehicles (one of them by
 * tag), and a few for the sub-companies, whose vehicles the top company's do not cover. The settings
 * are the catalog's defaults or close to them. With the demo fleet's seed, every type but driving
 * after dark (which waits for sunset) has something to fire on within the first quarter hour, and
 * every configuration within the first hour (demo-fleet.spec.ts).
 */
export const DEMO_ALERTS: readonly DemoAlert[] = [
  {
    company: TOP,
    name: 'Inner City: entered',
    alertTypeId: AlertTypes.geofenceEnter.id,
    geofence: 'Inner City',
  },
  { company: TOP, name: 'Inner City: left', alertTypeId: AlertTypes.geofenceExit.id, geofence: 'Inner City' },
  {
    company: TOP,
    name: 'West Side: entered',
    alertTypeId: AlertTypes.geofenceEnter.id,
    geofence: 'West Side',
  },
  { company: TOP, name: 'West Side: left', alertTypeId: AlertTypes.geofenceExit.id, geofence: 'West Side' },
  {
    company: TOP,
    name: 'City Centre: entered',
    alertTypeId: AlertTypes.geofenceEnter.id,
    geofence: 'City Centre',
  },
  {
    company: TOP,
    name: 'City Centre: left',
    alertTypeId: AlertTypes.geofenceExit.id,
    geofence: 'City Centre',
  },
  {
    company: TOP,
    name: 'Industrial Park: arrived',
    alertTypeId: AlertTypes.geofenceEnter.id,
    geofence: 'Industrial Park',
  },
  { company: TOP, name: 'Power cut', alertTypeId: AlertTypes.powerCut.id },
  { company: TOP, name: 'Ignition on', alertTypeId: AlertTypes.ignitionOn.id },
  { company: TOP, name: 'Ignition off', alertTypeId: AlertTypes.ignitionOff.id },
  {
    company: TOP,
    name: 'Battery below 11.8 V',
    alertTypeId: AlertTypes.lowBattery.id,
    settings: { thresholdV: 11.8 },
  },
  {
    company: TOP,
    name: 'Over 100 km/h for 10 s',
    alertTypeId: AlertTypes.overspeed.id,
    settings: { maxSpeedKmh: 100, minDurationSeconds: 10 },
  },
  { company: TOP, name: 'Harsh braking', alertTypeId: AlertTypes.harshBraking.id },
  { company: TOP, name: 'Harsh acceleration', alertTypeId: AlertTypes.harshAcceleration.id },
  {
    company: TOP,
    name: 'Idling over 5 min',
    alertTypeId: AlertTypes.excessiveIdling.id,
    settings: { idleMinutes: 5 },
  },
  { company: TOP, name: 'Electric vans: charging', alertTypeId: AlertTypes.charging.id, tags: ['electric'] },
  {
    company: TOP,
    name: 'Engine over 4,000 rpm',
    alertTypeId: AlertTypes.exceedRpm.id,
    settings: { maxRpm: 4_000 },
  },
  {
    company: TOP,
    name: 'Coolant over 105 °C',
    alertTypeId: AlertTypes.exceedEngineTemperature.id,
    settings: { maxCoolantTempC: 105 },
  },
  { company: TOP, name: 'Driving after dark', alertTypeId: AlertTypes.drivingAfterDark.id },
  {
    company: NORTH,
    name: 'Inner City: entered',
    alertTypeId: AlertTypes.geofenceEnter.id,
    geofence: 'Inner City',
  },
  {
    company: NORTH,
    name: 'Trucks over 90 km/h',
    alertTypeId: AlertTypes.overspeed.id,
    tags: ['truck'],
    settings: { maxSpeedKmh: 90, minDurationSeconds: 5 },
  },
  {
    company: NORTH,
    name: 'Refrigerated: coolant over 100 °C',
    alertTypeId: AlertTypes.exceedEngineTemperature.id,
    tags: ['refrigerated'],
    settings: { maxCoolantTempC: 100 },
  },
  {
    company: HARBOUR,
    name: 'Over 100 km/h',
    alertTypeId: AlertTypes.overspeed.id,
    settings: { maxSpeedKmh: 100 },
  },
  { company: HARBOUR, name: 'Battery below 11.8 V', alertTypeId: AlertTypes.lowBattery.id },
  {
    company: SOUTH,
    name: 'Harsh braking',
    alertTypeId: AlertTypes.harshBraking.id,
    settings: { thresholdG: 0.5 },
  },
  {
    company: SOUTH,
    name: 'Battery below 12 V',
    alertTypeId: AlertTypes.lowBattery.id,
    settings: { thresholdV: 12 },
  },
  {
    company: SOUTH,
    name: 'Idling over 5 min',
    alertTypeId: AlertTypes.excessiveIdling.id,
    settings: { idleMinutes: 5 },
  },
];

function toInput(shape: GeofenceShape): Omit<DemoGeofenceInput, 'name'> {
  return shape.kind === 'circle'
    ? { circle: { lat: shape.lat, lng: shape.lng, radiusM: shape.radiusM } }
    : { polygon: shape.polygon };
}

/**
 * Makes sure the demo companies have their geofences and alert configurations, and lists them. Each is
 * looked up by name in its company and created only when missing, so a start after a crash in the
 * middle completes the set, and later starts create nothing. One that an operator changed is left as
 * it is; one deleted is made again. `companies` and `vehicles` map the demo's names to ids.
 */
export async function ensureDemoAlerts(
  services: DemoAlertServices,
  companies: ReadonlyMap<string, number>,
  vehicles: ReadonlyMap<string, number>,
  network?: RoadNetwork,
): Promise<DemoAlertCredentials & { created: number }> {
  const companyId = (name: string) => {
    const id = companies.get(name);
    if (id === undefined) throw new Error(`demo alerts: no demo company "${name}"`);
    return id;
  };
  let created = 0;

  const geofences: DemoAlertCredentials['geofences'] = [];
  const existingGeofences = new Map<number, readonly { id: number; name: string }[]>();
  for (const geofence of demoGeofences(network)) {
    const owner = companyId(geofence.company);
    if (!existingGeofences.has(owner)) existingGeofences.set(owner, await services.geofences.list(owner));
    let id = existingGeofences.get(owner)!.find((existing) => existing.name === geofence.name)?.id;
    if (id === undefined) {
      id = (await services.geofences.create(owner, { name: geofence.name, ...toInput(geofence.shape) })).id;
      created += 1;
    }
    geofences.push({ id, companyId: owner, name: geofence.name });
  }

  const alerts: DemoAlertCredentials['alerts'] = [];
  const existingAlerts = new Map<number, readonly { id: number; name: string; alertTypeId: number }[]>();
  for (const alert of DEMO_ALERTS) {
    const owner = companyId(alert.company);
    if (!existingAlerts.has(owner)) existingAlerts.set(owner, await services.configurations.list(owner));
    const existing = existingAlerts.get(owner)!.find((candidate) => candidate.name === alert.name);
    let id = existing?.id;
    if (id === undefined) {
      const settings: AlertSettings = { ...alert.settings };
      if (alert.geofence !== undefined) {
        const geofence = geofences.find(
          (entry) => entry.companyId === owner && entry.name === alert.geofence,
        );
        if (!geofence) throw new Error(`demo alerts: "${alert.name}" needs geofence "${alert.geofence}"`);
        settings.geofenceId = geofence.id;
      }
      const vehicleIds = (alert.vehicles ?? []).map((name) => {
        const vehicle = vehicles.get(name);
        if (vehicle === undefined) throw new Error(`demo alerts: no demo vehicle "${name}"`);
        return vehicle;
      });
      id = (
        await services.configurations.create(owner, {
          name: alert.name,
          alertTypeId: alert.alertTypeId,
          vehicleIds,
          tags: alert.tags ?? [],
          settings,
          isActive: true,
        })
      ).id;
      created += 1;
    }
    alerts.push({
      id,
      companyId: owner,
      alertTypeId: existing?.alertTypeId ?? alert.alertTypeId,
      name: alert.name,
    });
  }
  return { geofences, alerts, created };
}
