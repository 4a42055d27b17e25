import { randomUUID } from 'node:crypto';
import { AlertFiredV1, fixOrderMs, instantMs, PositionReportedV1, Topics } from '@fleet/contracts';
import { AddressResolver, StructuredAddress } from '@fleet/geo';
import { BatchCoalescer, CompanyDirectory, FleetMetrics, InjectOutbox, Outbox } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ALERTS_SCHEMA } from '../alert-engine.schema.constants';
import { AlertVehicles, KnownVehicle } from '../vehicles/alert-vehicles';
import { AlertEvaluatorQueries, StateUpdate } from './alert-evaluator.queries';
import { emptyMemory, evaluateFix } from './evaluation';
import { RuleSets } from './rule-sets';
import { CoveringConfiguration, Firing } from './rule-types';

/** Most events evaluated in one transaction when partition batches are merged. */
const MAX_EVENTS_PER_TRANSACTION = 2_000;

/** A firing with what its record and event are made of. */
interface Fired {
  firing: Firing;
  configuration: CoveringConfiguration;
  vehicle: KnownVehicle;
  fix: PositionReportedV1;
  /** The fix time the device reported: the record's time. */
  fixTime: Date;
}

/** A fix with its place in the vehicle's order (`fixOrderMs`), computed once. */
interface OrderedFix {
  fix: PositionReportedV1;
  orderMs: number;
}

const recordKey = (configurationId: number, vehicleId: number, utcTime: Date) =>
  `${configurationId}:${vehicleId}:${utcTime.getTime()}`;

/**
 * The fixes of each vehicle in the vehicle's order, oldest first (ties keep their delivery order): by
 * `fixOrderMs`, the fix time or the arrival of a fix reported ahead of it, so a fix from a clock running
 * ahead cannot hold the vehicle's state until its time comes (issue 54).
 */
function byVehicleInOrder(events: readonly PositionReportedV1[]): Map<number, OrderedFix[]> {
  const byVehicle = new Map<number, OrderedFix[]>();
  for (const fix of events) {
    const entry = { fix, orderMs: fixOrderMs(fix) };
    const list = byVehicle.get(fix.vehicleId);
    if (list) list.push(entry);
    else byVehicle.set(fix.vehicleId, [entry]);
  }
  for (const list of byVehicle.values()) {
    if (list.length > 1) list.sort((a, b) => a.orderMs - b.orderMs);
  }
  return byVehicle;
}

/**
 * Evaluates consumed positions against the configurations covering each vehicle, in one transaction
 * per run: the vehicles' rule state is read with a row lock, each vehicle's fixes newer than its
 * newest evaluated fix are evaluated in the vehicle's order (`fixOrderMs`: the fix time, or the
 * arrival of a fix reported ahead of it; `newest_fix` and the rules' times are such places), and the
 * records (at the fix time the device reported), their fired-alert events (on
 * the outbox) and the new states are written together. A redelivered batch finds its fixes no newer
 * than the stored state and fires nothing; a crash before the commit leaves nothing behind.
 */
@Injectable()
export class AlertEvaluator {
  private readonly coalescer = new BatchCoalescer<PositionReportedV1>(
    (events) => this.evaluate(events),
    MAX_EVENTS_PER_TRANSACTION,
  );

  constructor(
    @InjectDataSource(ALERTS_SCHEMA) private readonly dataSource: DataSource,
    @InjectOutbox(ALERTS_SCHEMA) private readonly outbox: Outbox,
    private readonly vehicles: AlertVehicles,
    private readonly ruleSets: RuleSets,
    private readonly queries: AlertEvaluatorQueries,
    private readonly addresses: AddressResolver,
    private readonly companies: CompanyDirectory,
    private readonly metrics: FleetMetrics,
  ) {}

  /**
   * Evaluates `events`; concurrent calls (one per partition batch) share one transaction, and resolve
   * once it has committed.
   */
  apply(events: readonly PositionReportedV1[]): Promise<void> {
    return events.length === 0 ? Promise.resolve() : this.coalescer.submit(events);
  }

  private async evaluate(events: readonly PositionReportedV1[]): Promise<void> {
    const byVehicle = byVehicleInOrder(events);
    const vehicleIds = [...byVehicle.keys()];
    const outcome = await this.dataSource.transaction(async (manager) => {
      // Locked in vehicle order, so that two transactions over overlapping vehicles cannot deadlock.
      const rows = await this.queries.lockStates(manager, vehicleIds);
      const states = new Map(rows.map((row) => [row.vehicle_id, row]));
      const known = await this.vehicles.of(manager, vehicleIds);
      await this.ruleSets.refresh(manager, [
        ...new Set([...known.values()].flatMap((vehicle) => vehicle.companyIds)),
      ]);

      const fired: Fired[] = [];
      const updates: StateUpdate[] = [];
      let evaluated = 0;
      for (const [vehicleId, fixes] of byVehicle) {
        const stored = states.get(vehicleId);
        const vehicle = known.get(vehicleId);
        // A vehicle the projection does not know is evaluated against nothing, but its state is
        // kept, so that its first fix is remembered once its configurations arrive.
        const rules = this.ruleSets.forVehicle(vehicle);
        let memory = stored?.state ?? emptyMemory();
        let newest = stored ? new Date(stored.newest_fix).getTime() : -Infinity;
        for (const { fix, orderMs } of fixes) {
          // Late fixes and redeliveries: never newer than what was evaluated, never fire.
          if (orderMs <= newest) continue;
          const evaluation = evaluateFix(
            memory,
            { vehicleId, fixTime: orderMs, lat: fix.lat, lng: fix.lng, readings: fix },
            rules.configurations,
            rules.geofences,
          );
          memory = evaluation.memory;
          newest = orderMs;
          evaluated++;
          for (const firing of evaluation.firings) {
            const configuration = rules.configurations.find((held) => held.id === firing.configurationId);
            if (configuration && vehicle)
              fired.push({ firing, configuration, vehicle, fix, fixTime: new Date(instantMs(fix.fixTime)) });
          }
        }
        if (newest !== -Infinity && (!stored || newest > new Date(stored.newest_fix).getTime()))
          updates.push({ vehicleId, newestFix: new Date(newest), memory });
      }
      const recordedTypes = fired.length > 0 ? await this.record(manager, fired) : [];
      if (updates.length > 0) await this.queries.writeStates(manager, updates);
      return { evaluated, recordedTypes };
    });
    // Counted once committed: a transaction that failed is evaluated again with its redelivery.
    this.metrics.alertPositionsEvaluated.inc(outcome.evaluated);
    for (const type of outcome.recordedTypes) this.metrics.alertsFired.inc({ type: String(type) });
  }

  /**
   * Inserts the records in one statement and enqueues one fired-alert event per record inserted. A
   * record already there (same configuration, vehicle and fix time: a replica that evaluated the
   * same fix during a rebalance) is skipped, and so is its event. Resolves to the alert type of each
   * record inserted.
   */
  private async record(manager: EntityManager, fired: readonly Fired[]): Promise<number[]> {
    const places = await this.placesOf(fired);
    const inserted = await this.queries.insertRecords(
      manager,
      fired.map((item, index) => ({
        utcTime: item.fixTime,
        companyId: item.configuration.companyId,
        configurationId: item.configuration.id,
        alertTypeId: item.firing.alertTypeId,
        vehicleId: item.vehicle.vehicleId,
        vehicleName: item.vehicle.name,
        description: item.firing.description,
        lat: item.fix.lat,
        lng: item.fix.lng,
        course: item.fix.course ?? 0,
        address: places[index].address,
        addressParts: places[index].parts === null ? null : JSON.stringify(places[index].parts),
        data: item.firing.data === null ? null : JSON.stringify(item.firing.data),
      })),
    );
    const ids = new Map(
      inserted.map((row) => [
        recordKey(row.configuration_id, row.vehicle_id, new Date(row.utc_time)),
        Number(row.id),
      ]),
    );
    const events = fired.flatMap((item, index) => {
      const recordId = ids.get(recordKey(item.configuration.id, item.vehicle.vehicleId, item.fixTime));
      return recordId === undefined ? [] : [{ item, recordId, place: places[index] }];
    });
    await this.outbox.enqueue(
      manager,
      Topics.alertsFired,
      events.map(({ item, recordId, place }) => ({
        key: String(item.vehicle.vehicleId),
        payload: this.eventOf(item, recordId, place),
      })),
    );
    return events.map(({ item }) => item.firing.alertTypeId);
  }

  private eventOf(
    item: Fired,
    recordId: number,
    place: { address: string | null; parts: StructuredAddress | null },
  ): AlertFiredV1 {
    const { firing, configuration, vehicle, fix } = item;
    return {
      eventId: randomUUID(),
      recordId,
      configurationId: configuration.id,
      alertTypeId: firing.alertTypeId,
      companyId: configuration.companyId,
      ancestorCompanyIds: this.companies.ancestorsOf(configuration.companyId),
      vehicleId: vehicle.vehicleId,
      vehicleName: vehicle.name,
      lat: fix.lat,
      lng: fix.lng,
      course: fix.course ?? 0,
      fixTime: item.fixTime.toISOString(),
      address: place.parts,
      data: firing.data,
      description: firing.description,
      addressLine: place.address,
    };
  }

  /** The address of each firing's position, looked up once per distinct point. */
  private async placesOf(
    fired: readonly Fired[],
  ): Promise<{ address: string | null; parts: StructuredAddress | null }[]> {
    const lookups = new Map<string, Promise<{ address: string | null; parts: StructuredAddress | null }>>();
    return Promise.all(
      fired.map(({ fix }) => {
        const key = `${fix.lat},${fix.lng}`;
        let lookup = lookups.get(key);
        if (!lookup) lookups.set(key, (lookup = this.addresses.addressWithPartsOf(fix.lat, fix.lng)));
        return lookup;
      }),
    );
  }
}
