import { Topics, VehicleSnapshotV1 } from '@fleet/contracts';
import { InjectOutbox, Outbox } from '@fleet/platform';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { QueryApiException, QueryApiExceptionCode } from '../query-api.exception';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { Vehicle, VehicleCompany } from './vehicle.entity';
import { normalizeTags } from './vehicle-tags';
import { insertCompanyMappings } from './vehicles.queries';

export interface NewVehicle {
  name: string;
  imei: string;
  vin?: string | null;
  companyIds: number[];
  /** Normalized by normalizeTags (vehicle-tags.ts); none when absent. */
  tags?: readonly string[];
}

/** What may change on a registered vehicle; an absent key stays as it is. */
export interface VehicleChanges {
  name?: string;
  vin?: string | null;
  /** Replaces the vehicle's tags (an empty list removes them all). */
  tags?: readonly string[];
  /** Replaces the vehicle's company mappings. */
  companyIds?: number[];
}

export interface RegisteredVehicle {
  id: number;
  name: string;
  imei: string;
  vin: string | null;
  companyIds: number[];
  tags: string[];
}

/**
 * Replaces a vehicle's company mappings; each new one is `reported` if the vehicle has a last position.
 * Call it holding the vehicle's row lock (FOR UPDATE; a vehicle inserted in the same transaction is
 * not visible to anyone else yet). The projection of a first report waits for that lock
 * (PositionProjection.lockVehicles), so either the report committed before this runs, and its last
 * position is seen here, or the projection runs after this transaction and marks the new mappings.
 */
export async function replaceVehicleCompanies(
  manager: EntityManager,
  vehicleId: number,
  companyIds: number[],
): Promise<void> {
  await manager.delete(VehicleCompany, { vehicleId });
  const unique = [...new Set(companyIds)];
  if (unique.length) await insertCompanyMappings(manager, vehicleId, unique);
}

/** Registers vehicles and maps them to companies; each change is announced through the outbox. */
@Injectable()
export class VehicleRegistry implements OnApplicationBootstrap {
  constructor(
    @InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource,
    @InjectOutbox(QUERY_SCHEMA) private readonly outbox: Outbox,
  ) {}

  async register(input: NewVehicle): Promise<RegisteredVehicle> {
    if (!/^\d{8,20}$/.test(input.imei))
      throw new QueryApiException(
        QueryApiExceptionCode.InvalidVehicle,
        `imei: "${input.imei}" is not 8 to 20 digits`,
      );
    const tags = normalizeTags(input.tags ?? []);
    return this.dataSource.transaction(async (manager) => {
      if (await manager.existsBy(Vehicle, { imei: input.imei })) {
        throw new QueryApiException(
          QueryApiExceptionCode.ImeiTaken,
          `imei: ${input.imei} is already registered`,
        );
      }
      const vehicle = await manager.save(
        manager.create(Vehicle, { name: input.name, imei: input.imei, vin: input.vin ?? null, tags }),
      );
      await replaceVehicleCompanies(manager, vehicle.id, input.companyIds);
      return this.announce(manager, vehicle.id);
    });
  }

  /** Replaces the vehicle's company mappings. */
  async mapToCompanies(vehicleId: number, companyIds: number[]): Promise<RegisteredVehicle> {
    return this.update(vehicleId, { companyIds });
  }

  /** Replaces the vehicle's tags (normalized: see normalizeTags). */
  async setTags(vehicleId: number, tags: readonly string[]): Promise<RegisteredVehicle> {
    return this.update(vehicleId, { tags });
  }

  /**
   * Changes what `changes` names, as one new version of the vehicle, announced in the same
   * transaction. A change that leaves everything as it was still makes a new version: consumers
   * treat snapshots as idempotent, and an operator re-applying a value expects it announced.
   */
  async update(vehicleId: number, changes: VehicleChanges): Promise<RegisteredVehicle> {
    return this.dataSource.transaction((manager) => this.updateWithin(manager, vehicleId, changes));
  }

  /**
   * `update` inside the caller's transaction, for changes that must commit with something else (a
   * `name` command with its result: VehicleCommands).
   */
  async updateWithin(
    manager: EntityManager,
    vehicleId: number,
    changes: VehicleChanges,
  ): Promise<RegisteredVehicle> {
    const tags = changes.tags === undefined ? undefined : normalizeTags(changes.tags);
    const vehicle = await manager.findOne(Vehicle, {
      where: { id: vehicleId },
      lock: { mode: 'pessimistic_write' },
    });
    if (!vehicle)
      throw new QueryApiException(
        QueryApiExceptionCode.VehicleNotFound,
        `Vehicle ${vehicleId} does not exist.`,
      );
    if (changes.companyIds !== undefined)
      await replaceVehicleCompanies(manager, vehicleId, changes.companyIds);
    await manager.update(
      Vehicle,
      { id: vehicleId },
      {
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.vin === undefined ? {} : { vin: changes.vin }),
        ...(tags === undefined ? {} : { tags }),
        version: vehicle.version + 1,
        updatedAt: new Date(),
      },
    );
    return this.announce(manager, vehicleId);
  }

  async list(): Promise<RegisteredVehicle[]> {
    const vehicles = await this.dataSource.getRepository(Vehicle).find({ order: { id: 'ASC' } });
    const mappings = await this.dataSource.getRepository(VehicleCompany).find();
    return vehicles.map((vehicle) => this.toRegistered(vehicle, mappings));
  }

  /** Re-announces every vehicle at start (heals projections; refills the embedded in-memory broker). */
  async onApplicationBootstrap(): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const vehicles = await manager.find(Vehicle, { order: { id: 'ASC' } });
      const mappings = await manager.find(VehicleCompany);
      await this.outbox.enqueue(
        manager,
        Topics.vehicleSnapshots,
        vehicles.map((vehicle) => ({ key: String(vehicle.id), payload: this.snapshotOf(vehicle, mappings) })),
      );
    });
  }

  private async announce(manager: EntityManager, vehicleId: number): Promise<RegisteredVehicle> {
    const vehicle = await manager.findOneByOrFail(Vehicle, { id: vehicleId });
    const mappings = await manager.findBy(VehicleCompany, { vehicleId });
    await this.outbox.enqueue(manager, Topics.vehicleSnapshots, [
      { key: String(vehicle.id), payload: this.snapshotOf(vehicle, mappings) },
    ]);
    return this.toRegistered(vehicle, mappings);
  }

  private toRegistered(vehicle: Vehicle, mappings: VehicleCompany[]): RegisteredVehicle {
    const companyIds = mappings
      .filter((m) => m.vehicleId === vehicle.id)
      .map((m) => m.companyId)
      .sort((a, b) => a - b);
    return {
      id: vehicle.id,
      name: vehicle.name,
      imei: vehicle.imei,
      vin: vehicle.vin,
      companyIds,
      tags: vehicle.tags,
    };
  }

  private snapshotOf(vehicle: Vehicle, mappings: VehicleCompany[]): VehicleSnapshotV1 {
    return {
      ...this.toRegistered(vehicle, mappings),
      vehicleId: vehicle.id,
      deleted: false,
      version: vehicle.version,
      updatedAt: vehicle.updatedAt.toISOString(),
    };
  }
}
