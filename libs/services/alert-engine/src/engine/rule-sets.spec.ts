import type { EntityManager } from 'typeorm';
import type { KnownVehicle } from '../vehicles/alert-vehicles';
import { RuleSets } from './rule-sets';
import { ConfigurationRow, GeofenceRow, RuleSetQueries, RuleVersionRow } from './rule-sets.queries';

interface Tables {
  versions: RuleVersionRow[];
  configurations: ConfigurationRow[];
  geofences: GeofenceRow[];
}

/** The transaction RuleSets is given: the fake queries below never use it. */
const manager = {} as EntityManager;

/** RuleSetQueries answering from `tables` (which a test may replace), counting what it was asked. */
function fakeQueries(tables: Tables) {
  const fake = { tables, asked: [] as string[] };
  const of = <T extends { company_id: number }>(rows: T[], companyIds: readonly number[]) =>
    rows.filter((row) => companyIds.includes(row.company_id));
  const queries: RuleSetQueries = {
    versionsOf: async (_manager, companyIds) => {
      fake.asked.push('versions');
      return of(fake.tables.versions, companyIds);
    },
    activeConfigurationsOf: async (_manager, companyIds) => {
      fake.asked.push(`configurations ${companyIds.join(',')}`);
      return of(fake.tables.configurations, companyIds);
    },
    geofencesOf: async (_manager, companyIds) => {
      fake.asked.push(`geofences ${companyIds.join(',')}`);
      return of(fake.tables.geofences, companyIds);
    },
  };
  return Object.assign(fake, { queries });
}

const configuration = (id: number, companyId: number, vehicleIds: number[] = [], tags: string[] = []) => ({
  id,
  company_id: companyId,
  name: `Configuration ${id}`,
  alert_type_id: 10,
  vehicle_ids: vehicleIds,
  tags,
  settings: { maxSpeedKmh: 90 },
});
const vehicle = (vehicleId: number, companyIds: number[], tags: string[] = []): KnownVehicle => ({
  vehicleId,
  name: `Vehicle ${vehicleId}`,
  companyIds,
  tags,
});
const ids = (rules: { configurations: readonly { id: number }[] }) => rules.configurations.map((c) => c.id);

describe('RuleSets', () => {
  const tables: Tables = {
    versions: [
      { company_id: 1, version: '3' },
      { company_id: 2, version: '1' },
    ],
    configurations: [
      configuration(10, 1),
      configuration(11, 1, [7]),
      configuration(12, 1, [], ['refrigerated']),
      configuration(13, 1, [8], ['dry']),
      configuration(20, 2, [7]),
    ],
    geofences: [
      {
        id: 100,
        company_id: 1,
        name: 'Depot',
        shape: { kind: 'circle', lat: 52.5, lng: 13.4, radiusM: 500 },
      },
      { id: 200, company_id: 2, name: 'Port', shape: { kind: 'circle', lat: 53.5, lng: 10, radiusM: 500 } },
    ],
  };

  it('covers listed and tagged vehicles, and every vehicle for empty lists; fills in default settings', async () => {
    const ruleSets = new RuleSets(fakeQueries(tables).queries);
    await ruleSets.refresh(manager, [1, 2]);

    expect(ids(ruleSets.forVehicle(vehicle(7, [1])))).toEqual([10, 11]);
    expect(ids(ruleSets.forVehicle(vehicle(5, [1], ['refrigerated'])))).toEqual([10, 12]);
    expect(ids(ruleSets.forVehicle(vehicle(6, [1], ['dry', 'north'])))).toEqual([10, 13]);
    expect(ids(ruleSets.forVehicle(vehicle(9, [1], ['north'])))).toEqual([10]);
    // Listed by another company's configuration only counts when mapped to that company too.
    expect(ids(ruleSets.forVehicle(vehicle(7, [1, 2])))).toEqual([10, 11, 20]);
    expect(ids(ruleSets.forVehicle(vehicle(8, [2])))).toEqual([]);
    expect(ruleSets.forVehicle(vehicle(7, [1])).configurations[0].settings).toEqual({
      maxSpeedKmh: 90,
      minDurationSeconds: 0,
    });
    expect(ids(ruleSets.forVehicle(undefined))).toEqual([]);
  });

  it('gives a vehicle of several companies one geofence lookup over all of theirs', async () => {
    const ruleSets = new RuleSets(fakeQueries(tables).queries);
    await ruleSets.refresh(manager, [1, 2]);

    const one = ruleSets.forVehicle(vehicle(3, [1])).geofences;
    expect(one.index.containing({ lat: 53.5, lng: 10 })).toEqual([]);
    const both = ruleSets.forVehicle(vehicle(4, [2, 1])).geofences;
    expect(both.index.containing({ lat: 53.5, lng: 10 }).map((g) => g.id)).toEqual([200]);
    expect(both.index.containing({ lat: 52.5, lng: 13.4 }).map((g) => g.id)).toEqual([100]);
    expect([both.nameOf(100), both.nameOf(200)]).toEqual(['Depot', 'Port']);
  });

  it('reloads only the companies whose version moved, and hands out the same arrays until then', async () => {
    const fake = fakeQueries(tables);
    const { asked } = fake;
    const ruleSets = new RuleSets(fake.queries);
    await ruleSets.refresh(manager, [1, 2, 3]);
    const first = ruleSets.forVehicle(vehicle(7, [1]));
    // A company without a version (no change ever) is loaded once, with nothing in it.
    expect(asked).toEqual(['versions', 'configurations 1,2,3', 'geofences 1,2,3']);

    await ruleSets.refresh(manager, [1, 2, 3]);
    expect(asked).toHaveLength(4);
    expect(ruleSets.forVehicle(vehicle(7, [1])).configurations).toBe(first.configurations);
    // Another vehicle covered alike shares the array (the rules prepare it once).
    expect(ruleSets.forVehicle(vehicle(99, [1], ['dry'])).configurations).not.toBe(first.configurations);
    expect(ruleSets.forVehicle(vehicle(98, [1])).configurations).toBe(
      ruleSets.forVehicle(vehicle(97, [1])).configurations,
    );

    const changed: Tables = {
      ...tables,
      versions: [tables.versions[0], { company_id: 2, version: '2' }],
      configurations: [...tables.configurations.filter((c) => c.id !== 20), configuration(21, 2)],
    };
    fake.tables = changed;
    await ruleSets.refresh(manager, [1, 2, 3]);
    expect(asked.slice(4)).toEqual(['versions', 'configurations 2', 'geofences 2']);
    expect(ids(ruleSets.forVehicle(vehicle(7, [1, 2])))).toEqual([10, 11, 21]);
  });
});
