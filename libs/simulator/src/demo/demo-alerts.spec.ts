import { alertTypeIds, AlertTypes, settingsProblems } from '@fleet/contracts';
import { circleProblems, polygonProblems } from '@fleet/geo';
import {
  DemoAlertInput,
  DemoAlertServices,
  DemoGeofenceInput,
  DEMO_ALERTS,
  demoGeofences,
  ensureDemoAlerts,
} from './demo-alerts';
import { DEMO_COMPANIES, DEMO_VEHICLES } from './demo-tenant';

/** alert-engine's two services as the seeding sees them, in memory, counting what it is asked to create. */
function fakeServices() {
  let nextId = 100;
  const geofences: (DemoGeofenceInput & { id: number; companyId: number })[] = [];
  const configurations: (DemoAlertInput & { id: number; companyId: number })[] = [];
  const services: DemoAlertServices = {
    geofences: {
      create: async (companyId, input) => {
        const row = { ...input, id: (nextId += 1), companyId };
        geofences.push(row);
        return row;
      },
      list: async (companyId) => geofences.filter((row) => row.companyId === companyId),
    },
    configurations: {
      create: async (companyId, input) => {
        const row = { ...input, id: (nextId += 1), companyId };
        configurations.push(row);
        return row;
      },
      list: async (companyId) => configurations.filter((row) => row.companyId === companyId),
    },
  };
  return { services, geofences, configurations };
}

const companies = new Map(DEMO_COMPANIES.map((company, index) => [company.name, index + 1]));
const vehicles = new Map(DEMO_VEHICLES.map((vehicle, index) => [vehicle.name, index + 11]));

describe('the demo alerts', () => {
  it('configure every catalog type for the top company', () => {
    const top = DEMO_COMPANIES[0].name;
    const types = new Set(
      DEMO_ALERTS.filter((alert) => alert.company === top).map((alert) => alert.alertTypeId),
    );
    expect([...types].sort((a, b) => a - b)).toEqual([...alertTypeIds]);
  });

  it('are what alert-engine accepts: valid shapes and settings, geofences and tags of their own company', () => {
    for (const geofence of demoGeofences()) {
      const problems =
        geofence.shape.kind === 'circle'
          ? circleProblems(geofence.shape)
          : polygonProblems(geofence.shape.polygon);
      expect({ geofence: geofence.name, problems }).toEqual({ geofence: geofence.name, problems: [] });
    }
    for (const alert of DEMO_ALERTS) {
      const geofence = demoGeofences().find(
        (candidate) => candidate.company === alert.company && candidate.name === alert.geofence,
      );
      const needsGeofence =
        alert.alertTypeId === AlertTypes.geofenceEnter.id || alert.alertTypeId === AlertTypes.geofenceExit.id;
      const settings = { ...alert.settings, ...(needsGeofence && { geofenceId: 1 }) };
      const ownVehicles = DEMO_VEHICLES.filter((vehicle) => vehicle.companies.includes(alert.company));
      expect({
        alert: `${alert.company}: ${alert.name}`,
        problems: settingsProblems(alert.alertTypeId, settings),
        geofence: needsGeofence === (geofence !== undefined),
        // A tag no vehicle of the company carries would cover nothing.
        tags: (alert.tags ?? []).every((tag) => ownVehicles.some((vehicle) => vehicle.tags.includes(tag))),
        company: companies.has(alert.company),
      }).toEqual({
        alert: `${alert.company}: ${alert.name}`,
        problems: [],
        geofence: true,
        tags: true,
        company: true,
      });
    }
    const names = DEMO_ALERTS.map((alert) => `${alert.company}: ${alert.name}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it('are made once, with each configuration on its own company’s geofence, and listed', async () => {
    const fake = fakeServices();
    const first = await ensureDemoAlerts(fake.services, companies, vehicles);
    expect(first.created).toBe(demoGeofences().length + DEMO_ALERTS.length);
    expect(first.geofences).toEqual(
      fake.geofences.map(({ id, companyId, name }) => ({ id, companyId, name })),
    );
    expect(first.alerts).toEqual(
      fake.configurations.map(({ id, companyId, alertTypeId, name }) => ({
        id,
        companyId,
        alertTypeId,
        name,
      })),
    );
    for (const configuration of fake.configurations) {
      expect(configuration.isActive).toBe(true);
      if (configuration.settings?.geofenceId === undefined) continue;
      const geofence = fake.geofences.find((row) => row.id === configuration.settings!.geofenceId)!;
      expect(geofence.companyId).toBe(configuration.companyId);
    }
    const charging = fake.configurations.find((row) => row.alertTypeId === AlertTypes.charging.id)!;
    expect(charging).toMatchObject({ tags: ['electric'], vehicleIds: [] });

    const second = await ensureDemoAlerts(fake.services, companies, vehicles);
    expect(second).toEqual({ ...first, created: 0 });
    expect(fake.configurations).toHaveLength(DEMO_ALERTS.length);
  });

  it('completes a set of which some are missing (a crash in the middle, a deletion), keeping the rest', async () => {
    const fake = fakeServices();
    const first = await ensureDemoAlerts(fake.services, companies, vehicles);
    const lostGeofence = fake.geofences.splice(2, 1)[0];
    const lostAlerts = fake.configurations.splice(5, 3);

    const again = await ensureDemoAlerts(fake.services, companies, vehicles);

    expect(again.created).toBe(1 + lostAlerts.length);
    const key = (entry: { companyId: number; name: string }) => `${entry.companyId}/${entry.name}`;
    const lost = new Set([lostGeofence, ...lostAlerts].map(key));
    const lostIds = new Set([lostGeofence, ...lostAlerts].map((entry) => entry.id));
    for (const [made, before] of [
      [again.geofences, first.geofences],
      [again.alerts, first.alerts],
    ] as const) {
      // The same list in the same order; the kept ones with their ids, the lost ones made anew.
      expect(made.map(key)).toEqual(before.map(key));
      expect(made.filter((entry) => !lost.has(key(entry)))).toEqual(
        before.filter((entry) => !lost.has(key(entry))),
      );
      expect(made.filter((entry) => lost.has(key(entry)) && lostIds.has(entry.id))).toEqual([]);
    }
    expect(fake.configurations).toHaveLength(DEMO_ALERTS.length);
    expect(fake.geofences).toHaveLength(demoGeofences().length);
  });
});
