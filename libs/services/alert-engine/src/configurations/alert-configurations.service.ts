import {
  AlertConfigurationSnapshotV1,
  AlertSettings,
  alertTypeById,
  settingsWithDefaults,
  Topics,
} from '@fleet/contracts';
import { Counted, InjectOutbox, Outbox, Slice } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { AlertEngineException, AlertEngineExceptionCode } from '../alert-engine.exception';
import { ALERTS_SCHEMA } from '../alert-engine.schema.constants';
import { AlertConfiguration } from './alert-configuration.entity';
import { holdCompanyGeofence, vehiclesOfCompany } from './alert-configurations.queries';
import {
  changedInput,
  ConfigurationDefinition,
  ConfigurationInput,
  definitionOf,
  notVehiclesOf,
} from './configuration-rules';
import { bumpRuleVersion } from './rule-versions.queries';

/** What POST takes (and the demo seeding and the admin CLI give). */
export type NewAlertConfiguration = ConfigurationInput;

/** What PUT takes: any of the fields; see `changedInput` for how it is applied. */
export type AlertConfigurationChange = Partial<ConfigurationInput>;

/** A configuration as the routes show it. */
export interface AlertConfigurationView extends ConfigurationDefinition {
  id: number;
  companyId: number;
  /** The catalog's listing name of the type. */
  alertType: string;
  createdAt: Date;
  updatedAt: Date;
}

const GEOFENCE_TYPES = new Set<number>([1, 2]);

/**
 * Alert configurations of a company: checked against the catalog, the company's geofences and its
 * vehicles (alert-engine's projection of the registry), stored, and announced in the same transaction:
 * to the engine by raising the company's rule version, to other services by a snapshot on
 * `alerts.configuration-snapshots.v1` (outbox). Deleting keeps the row (records name it) and stops it
 * from firing.
 */
@Injectable()
export class AlertConfigurationsService {
  constructor(
    @InjectDataSource(ALERTS_SCHEMA) private readonly dataSource: DataSource,
    @InjectOutbox(ALERTS_SCHEMA) private readonly outbox: Outbox,
  ) {}

  async create(companyId: number, input: NewAlertConfiguration): Promise<AlertConfigurationView> {
    const definition = definitionOf(input);
    return this.dataSource.transaction(async (manager) => {
      await this.checkCompanyFacts(manager, companyId, definition);
      const saved = await manager.save(manager.create(AlertConfiguration, { companyId, ...definition }));
      await this.announce(manager, saved);
      return viewOf(saved);
    });
  }

  /** The company's configurations (deleted ones left out), by id. */
  async list(companyId: number, slice: Slice): Promise<Counted<AlertConfigurationView>> {
    const [rows, total] = await this.dataSource.getRepository(AlertConfiguration).findAndCount({
      where: { companyId, deletedAt: IsNull() },
      order: { id: 'ASC' },
      take: slice.limit,
      skip: slice.offset,
    });
    return { rows: rows.map(viewOf), total };
  }

  /** Applies a PUT's change (fields left out keep their value); 404 for another company's or a deleted one. */
  async update(
    companyId: number,
    id: number,
    change: AlertConfigurationChange,
  ): Promise<AlertConfigurationView> {
    return this.dataSource.transaction(async (manager) => {
      const current = await this.lockedOf(manager, companyId, id);
      const definition = definitionOf(changedInput(current, change));
      await this.checkCompanyFacts(manager, companyId, definition, current.vehicleIds);
      Object.assign(current, definition, { updatedAt: new Date() });
      const saved = await manager.save(current);
      await this.announce(manager, saved);
      return viewOf(saved);
    });
  }

  /** Soft-deletes it: it stops firing, its records keep naming it, and it answers 404 from now on. */
  async delete(companyId: number, id: number): Promise<AlertConfigurationView> {
    return this.dataSource.transaction(async (manager) => {
      const current = await this.lockedOf(manager, companyId, id);
      current.deletedAt = new Date();
      current.updatedAt = current.deletedAt;
      const saved = await manager.save(current);
      await this.announce(manager, saved);
      return viewOf(saved);
    });
  }

  /** Tells the engine (rule version) and other services (snapshot) of a change, with it. */
  private async announce(manager: EntityManager, saved: AlertConfiguration): Promise<void> {
    await bumpRuleVersion(manager, saved.companyId);
    await this.outbox.enqueue(manager, Topics.alertConfigurationSnapshots, [
      { key: String(saved.id), payload: snapshotOf(saved) },
    ]);
  }

  private async lockedOf(manager: EntityManager, companyId: number, id: number): Promise<AlertConfiguration> {
    const found = await manager.findOne(AlertConfiguration, {
      where: { id, companyId, deletedAt: IsNull() },
      lock: { mode: 'pessimistic_write' },
    });
    if (!found) {
      throw new AlertEngineException(
        AlertEngineExceptionCode.ConfigurationNotFound,
        `Alert configuration ${id} of company ${companyId} was not found.`,
      );
    }
    return found;
  }

  /**
   * What only the database knows: a geofence type's geofence is one of the company's, not deleted
   * (held with a share lock until commit, so that its deletion waits and then sees this
   * configuration); every newly listed vehicle is mapped to the company in alert-engine's projection
   * (one listed before stays listed when it is unmapped later: it is simply not covered meanwhile).
   */
  private async checkCompanyFacts(
    manager: EntityManager,
    companyId: number,
    definition: ConfigurationDefinition,
    listedBefore: readonly number[] = [],
  ): Promise<void> {
    const problems: string[] = [];
    const geofenceId = definition.settings.geofenceId;
    if (GEOFENCE_TYPES.has(definition.alertTypeId) && geofenceId !== undefined) {
      if (!(await holdCompanyGeofence(manager, geofenceId, companyId)))
        problems.push(`settings.geofenceId: ${geofenceId} is not a geofence of company ${companyId}`);
    }
    const added = definition.vehicleIds.filter((vehicleId) => !listedBefore.includes(vehicleId));
    if (added.length) {
      const known = new Set(await vehiclesOfCompany(manager, added, companyId));
      const unknown = added.filter((vehicleId) => !known.has(vehicleId));
      if (unknown.length) problems.push(notVehiclesOf(unknown, companyId));
    }
    if (problems.length) {
      throw new AlertEngineException(AlertEngineExceptionCode.InvalidDefinition, problems.join('; '));
    }
  }
}

export function snapshotOf(row: AlertConfiguration): AlertConfigurationSnapshotV1 {
  return {
    configurationId: row.id,
    companyId: row.companyId,
    alertTypeId: row.alertTypeId,
    isActive: row.isActive,
    deleted: row.deletedAt !== null,
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
  };
}

function viewOf(row: AlertConfiguration): AlertConfigurationView {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    alertTypeId: row.alertTypeId,
    alertType: alertTypeById(row.alertTypeId)?.listingName ?? String(row.alertTypeId),
    vehicleIds: row.vehicleIds,
    tags: row.tags,
    // Defaults filled again: a setting the catalog added after the row was written shows its default.
    settings: settingsWithDefaults(row.alertTypeId, row.settings as AlertSettings),
    isActive: row.isActive,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
