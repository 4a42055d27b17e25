import { AlertSettings } from '@fleet/contracts';
import { GeofenceShape } from '@fleet/geo';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A company's rule version (`alerts.rule_versions`; bigint, so text). */
export interface RuleVersionRow {
  company_id: number;
  version: string;
}

/** An active configuration as the engine loads it. */
export interface ConfigurationRow {
  id: number;
  company_id: number;
  name: string;
  alert_type_id: number;
  vehicle_ids: number[];
  tags: string[];
  settings: AlertSettings;
}

/** A geofence as the engine loads it. */
export interface GeofenceRow {
  id: number;
  company_id: number;
  name: string;
  shape: GeofenceShape;
}

/**
 * SQL of what the engine holds of each company's rules (RuleSets): the rule versions, the active
 * configurations and the geofences. Every statement runs in the caller's transaction (the evaluation's),
 * so it takes its `manager`.
 */
@Injectable()
export class RuleSetQueries {
  /** The rule versions of `companyIds`; a company that never had a change has no row. */
  async versionsOf(manager: EntityManager, companyIds: readonly number[]): Promise<RuleVersionRow[]> {
    return manager.query(
      'SELECT company_id, version FROM alerts.rule_versions WHERE company_id = ANY($1::int[])',
      [companyIds],
    );
  }

  /** The active, not deleted configurations of `companyIds`, by id. */
  async activeConfigurationsOf(
    manager: EntityManager,
    companyIds: readonly number[],
  ): Promise<ConfigurationRow[]> {
    return manager.query(
      `SELECT id, company_id, name, alert_type_id, vehicle_ids, tags, settings FROM alerts.configurations
        WHERE company_id = ANY($1::int[]) AND is_active AND deleted_at IS NULL ORDER BY id`,
      [companyIds],
    );
  }

  /** The not deleted geofences of `companyIds`, by id. */
  async geofencesOf(manager: EntityManager, companyIds: readonly number[]): Promise<GeofenceRow[]> {
    return manager.query(
      `SELECT id, company_id, name, shape FROM alerts.geofences
        WHERE company_id = ANY($1::int[]) AND deleted_at IS NULL ORDER BY id`,
      [companyIds],
    );
  }
}
