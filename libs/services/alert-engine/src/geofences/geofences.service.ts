import { GeofenceShape } from '@fleet/geo';
import { Counted, Slice } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { AlertEngineException, AlertEngineExceptionCode } from '../alert-engine.exception';
import { ALERTS_SCHEMA } from '../alert-engine.schema.constants';
import { bumpRuleVersion } from '../configurations/rule-versions.queries';
import { Geofence } from './geofence.entity';
import { configurationsWatching } from './geofences.queries';
import { changedGeofence, geofenceDefinitionOf, GeofenceInput } from './geofence-rules';

/** What POST takes (and the demo seeding and the admin CLI give): a name and a circle or a polygon. */
export type NewGeofence = GeofenceInput;

/** What PUT takes: a new name, a new shape, or both. */
export type GeofenceChange = Partial<GeofenceInput>;

/** A geofence as the routes show it. */
export interface GeofenceView {
  id: number;
  companyId: number;
  name: string;
  shape: GeofenceShape;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A company's geofences: checked with `@fleet/geo`'s rules, stored, and announced to the engine by
 * raising the company's rule version in the same transaction. Deleting keeps the row (records name
 * it); a geofence that a configuration still watches cannot be deleted (409).
 */
@Injectable()
export class GeofencesService {
  constructor(@InjectDataSource(ALERTS_SCHEMA) private readonly dataSource: DataSource) {}

  async create(companyId: number, input: NewGeofence): Promise<GeofenceView> {
    const definition = geofenceDefinitionOf(input);
    return this.dataSource.transaction(async (manager) => {
      const saved = await manager.save(manager.create(Geofence, { companyId, ...definition }));
      await bumpRuleVersion(manager, companyId);
      return viewOf(saved);
    });
  }

  /** The company's geofences (deleted ones left out), by id. */
  async list(companyId: number, slice: Slice): Promise<Counted<GeofenceView>> {
    const [rows, total] = await this.dataSource.getRepository(Geofence).findAndCount({
      where: { companyId, deletedAt: IsNull() },
      order: { id: 'ASC' },
      take: slice.limit,
      skip: slice.offset,
    });
    return { rows: rows.map(viewOf), total };
  }

  /** Applies a PUT's change (a field left out keeps its value); 404 for another company's or a deleted one. */
  async update(companyId: number, id: number, change: GeofenceChange): Promise<GeofenceView> {
    return this.dataSource.transaction(async (manager) => {
      const current = await this.lockedOf(manager, companyId, id);
      Object.assign(current, changedGeofence(current, change), { updatedAt: new Date() });
      const saved = await manager.save(current);
      await bumpRuleVersion(manager, companyId);
      return viewOf(saved);
    });
  }

  /**
   * Soft-deletes it, unless a configuration that is not deleted (active or not: a PUT can reactivate
   * one) watches it: then 409 naming those configurations. The row lock orders this after any
   * transaction that is making a configuration watch it (which holds a share lock on the row).
   */
  async delete(companyId: number, id: number): Promise<GeofenceView> {
    return this.dataSource.transaction(async (manager) => {
      const current = await this.lockedOf(manager, companyId, id);
      const watching = await configurationsWatching(manager, companyId, id);
      if (watching.length) {
        throw new AlertEngineException(
          AlertEngineExceptionCode.GeofenceInUse,
          `Geofence ${id} is watched by alert configuration(s) ${watching.join(', ')}: ` +
            'delete them or give them another geofence first.',
        );
      }
      current.deletedAt = new Date();
      current.updatedAt = current.deletedAt;
      const saved = await manager.save(current);
      await bumpRuleVersion(manager, companyId);
      return viewOf(saved);
    });
  }

  private async lockedOf(manager: EntityManager, companyId: number, id: number): Promise<Geofence> {
    const found = await manager.findOne(Geofence, {
      where: { id, companyId, deletedAt: IsNull() },
      lock: { mode: 'pessimistic_write' },
    });
    if (!found) {
      throw new AlertEngineException(
        AlertEngineExceptionCode.GeofenceNotFound,
        `Geofence ${id} of company ${companyId} was not found.`,
      );
    }
    return found;
  }
}

const viewOf = (row: Geofence): GeofenceView => ({
  id: row.id,
  companyId: row.companyId,
  name: row.name,
  shape: row.shape,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});
