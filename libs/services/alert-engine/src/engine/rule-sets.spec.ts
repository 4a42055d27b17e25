import type { EntityManager } from 'typeorm';
import type { KnownVehicle } from '../vehicles/alert-vehicles';
import { RuleSets } from './rule-sets';

interface Tables {
  versions: { company_id: number; version: string }[];
  configurations: {
    id: number;
    company_id: number;
    name: string;
    alert_type_id: number;
    vehicle_ids: number[];
    tags: string[];
    settings: object;
  }[];
  geofences: { id: number; company_id: number; name: string; shape: object }[];
}

/** A manager answering the three statements of RuleSets from `tables`, counting what it was asked. */
function fakeManager(tables: Tables) {
  const asked: string[] = [];
  const manager = {
    query: async (sql: string, [companyIds]: [number[]]) => {
      const of = <T extends { company_id: number }>(rows: T[]) =>
        rows.filter((row) => companyIds.includes(row.company_id));
      if (sql.includes('rule_versions')) {
        asked.push('versions');
        return of(tables.versions);
      }
      if (sql.includes('alerts.configurations')) {
        asked.push(`configurations ${companyIds.join(',')}`);
        return of(tables.configurations);
      }
      asked.push(`geofences ${companyIds.join(',')}`);
      return of(tables.geofences);
    },
  } as unknown as EntityManager;
  return { manager, asked };
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
    const ruleSets = new RuleSets();
    await ruleSets.refresh(fakeManager(tables).manager, [1, 2]);

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
    const ruleSets = new RuleSets();
    await ruleSets.refresh(fakeManager(tables).manager, [1, 2]);

    const one = ruleSets.forVehicle(vehicle(3, [1])).geofences;
    expect(one.index.containing({ lat: 53.5, lng: 10 })).toEqual([]);
    const both = ruleSets.forVehicle(vehicle(4, [2, 1])).geofences;
    expect(both.index.containing({ lat: 53.5, lng: 10 }).map((g) => g.id)).toEqual([200]);
    expect(both.index.containing({ lat: 52.5, lng: 13.4 }).map((g) => g.id)).toEqual([100]);
    expect([both.nameOf(100), both.nameOf(200)]).toEqual(['Depot', 'Port']);
  });

  it('reloads only the companies whose version moved, and hands out the same arrays until then', async () => {
    const ruleSets = new RuleSets();
    const { manager, asked } = fakeManager(tables);
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
    const next = fakeManager(changed);
    await ruleSets.refresh(next.manager, [1, 2, 3]);
    expect(next.asked).toEqual(['versions', 'configurations 2', 'geofences 2']);
    expect(ids(ruleSets.forVehicle(vehicle(7, [1, 2])))).toEqual([10, 11, 21]);
  });
});
