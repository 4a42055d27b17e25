import { settingsWithDefaults } from '@fleet/contracts';
import { GeofenceIndex, IndexedGeofence } from '@fleet/geo';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { KnownVehicle } from '../vehicles/alert-vehicles';
import { RuleSetQueries } from './rule-sets.queries';
import type { CoveringConfiguration, GeofenceLookup } from './rule-types';

/** An active configuration as held in memory: what it covers, and what the rules are given of it. */
export interface HeldConfiguration extends CoveringConfiguration {
  vehicleIds: ReadonlySet<number>;
  tags: readonly string[];
}

/** The rules of one company at one rule version. */
export interface CompanyRules {
  companyId: number;
  /** `alerts.rule_versions.version` when loaded; '0' for a company that never had a change. */
  version: string;
  configurations: readonly HeldConfiguration[];
  /** The company's geofences, indexed, and as a list (for lookups over several companies). */
  geofences: GeofenceLookup;
  geofenceList: readonly NamedGeofence[];
}

type NamedGeofence = IndexedGeofence & { name: string };

/** What a vehicle is evaluated against: its covering configurations and the geofences they may name. */
export interface VehicleRules {
  configurations: readonly CoveringConfiguration[];
  geofences: GeofenceLookup;
}

const lookupOf = (geofences: readonly NamedGeofence[]): GeofenceLookup => {
  const names = new Map(geofences.map((geofence) => [geofence.id, geofence.name]));
  return { index: new GeofenceIndex(geofences), nameOf: (id) => names.get(id) };
};

const NOTHING: VehicleRules = { configurations: [], geofences: lookupOf([]) };

/**
 * Whether `configuration` covers `vehicle` (already known to be mapped to the configuration's
 * company): the vehicle is listed, or carries one of its tags; with both lists empty, every vehicle
 * of the company.
 */
export function covers(configuration: HeldConfiguration, vehicle: KnownVehicle): boolean {
  if (configuration.vehicleIds.size === 0 && configuration.tags.length === 0) return true;
  return (
    configuration.vehicleIds.has(vehicle.vehicleId) ||
    configuration.tags.some((tag) => vehicle.tags.includes(tag))
  );
}

/**
 * Each company's active configurations and its geofences (in a spatial index), held in memory by
 * every engine replica and reloaded for a company only when its rule version moved: a batch costs
 * one query for the versions of the companies it involves, whatever their number of geofences.
 */
@Injectable()
export class RuleSets {
  private readonly held = new Map<number, CompanyRules>();
  /** Lookups over several companies' geofences (vehicles mapped to more than one), by company ids. */
  private readonly combined = new Map<string, GeofenceLookup>();
  /**
   * Each vehicle's rules, by the companies and tags they were computed for. The rules prepare a
   * configuration array once (evaluateFix caches by the array), so a vehicle is handed the same
   * array until its rules change, and vehicles covered alike share one.
   */
  private readonly vehicleRules = new Map<number, { signature: string; rules: VehicleRules }>();
  private readonly shared = new Map<string, CoveringConfiguration[]>();

  constructor(private readonly queries: RuleSetQueries) {}

  /**
   * Brings the rules of `companyIds` up to date inside the caller's transaction: the versions in one
   * query, then the configurations and geofences of every company whose version differs from the one
   * held, together.
   */
  async refresh(manager: EntityManager, companyIds: readonly number[]): Promise<void> {
    if (companyIds.length === 0) return;
    const rows = await this.queries.versionsOf(manager, companyIds);
    const versions = new Map(rows.map((row) => [row.company_id, String(row.version)]));
    const stale = companyIds.filter(
      (companyId) => this.held.get(companyId)?.version !== (versions.get(companyId) ?? '0'),
    );
    if (stale.length === 0) return;
    const [configurations, geofences] = await Promise.all([
      this.queries.activeConfigurationsOf(manager, stale),
      this.queries.geofencesOf(manager, stale),
    ]);
    for (const companyId of stale) {
      const geofenceList = geofences
        .filter((row) => row.company_id === companyId)
        .map((row) => ({ id: row.id, name: row.name, shape: row.shape }));
      this.held.set(companyId, {
        companyId,
        version: versions.get(companyId) ?? '0',
        configurations: configurations
          .filter((row) => row.company_id === companyId)
          .map((row) => ({
            id: row.id,
            companyId,
            alertTypeId: row.alert_type_id,
            name: row.name,
            settings: settingsWithDefaults(row.alert_type_id, row.settings),
            vehicleIds: new Set(row.vehicle_ids),
            tags: row.tags,
          })),
        geofences: lookupOf(geofenceList),
        geofenceList,
      });
    }
    this.combined.clear();
    this.vehicleRules.clear();
    this.shared.clear();
  }

  /** The rules a vehicle is evaluated against (nothing for a vehicle the projection does not know). */
  forVehicle(vehicle: KnownVehicle | undefined): VehicleRules {
    if (!vehicle) return NOTHING;
    const signature = `${vehicle.companyIds.join(',')}|${vehicle.tags.join(',')}`;
    const known = this.vehicleRules.get(vehicle.vehicleId);
    if (known?.signature === signature) return known.rules;
    const companies = vehicle.companyIds
      .map((companyId) => this.held.get(companyId))
      .filter((rules): rules is CompanyRules => rules !== undefined);
    let rules = NOTHING;
    if (companies.length > 0) {
      const covering: CoveringConfiguration[] = [];
      for (const company of companies) {
        for (const configuration of company.configurations) {
          if (covers(configuration, vehicle)) covering.push(configuration);
        }
      }
      const key = covering.map((configuration) => configuration.id).join(',');
      let configurations = this.shared.get(key);
      if (!configurations) this.shared.set(key, (configurations = covering));
      rules = { configurations, geofences: this.geofencesOf(companies) };
    }
    this.vehicleRules.set(vehicle.vehicleId, { signature, rules });
    return rules;
  }

  /** One company's lookup as held; for several, one index over all their geofences, kept until a reload. */
  private geofencesOf(companies: readonly CompanyRules[]): GeofenceLookup {
    if (companies.length === 1) return companies[0].geofences;
    const key = companies
      .map((rules) => rules.companyId)
      .sort((a, b) => a - b)
      .join(',');
    let lookup = this.combined.get(key);
    if (!lookup) {
      lookup = lookupOf(companies.flatMap((rules) => rules.geofenceList));
      this.combined.set(key, lookup);
    }
    return lookup;
  }
}
