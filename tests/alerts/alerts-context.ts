import { bumpRuleVersion } from '@fleet/alert-engine-service';
import { alertEngineFixtures, alertEngineModules } from '@fleet/alert-engine-service-testing';
import { authFixtures, authModules } from '@fleet/auth-service-testing';
import { AlertFiredV1, AlertSettings, PositionReportedV1, Topics, VehicleSnapshotV1 } from '@fleet/contracts';
import { GeofenceShape } from '@fleet/geo';
import { ConsumeEvents, EnvReader, EventBatch, EventPublisher } from '@fleet/platform';
import { queryApiFixtures, queryApiModules } from '@fleet/query-api-service-testing';
import { telemetryIngestFixtures, telemetryIngestModules } from '@fleet/telemetry-ingest-service-testing';
import { TestContext, TestDatabase, TestFixtures, TestVehicle, waitFor } from '@fleet/testing';
import { Controller, DynamicModule, Injectable, Module, Type } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Every fired-alert event published while the app ran, as a consumer of the topic sees them. */
@Injectable()
export class FiredAlerts {
  readonly events: AlertFiredV1[] = [];
}

@Controller()
class FiredAlertsConsumer {
  constructor(private readonly fired: FiredAlerts) {}

  @ConsumeEvents(Topics.alertsFired, { group: 'test-fired-alerts' })
  onFired(@Payload() batch: EventBatch<AlertFiredV1>): void {
    this.fired.events.push(...batch.events.map((event) => event.payload));
  }
}

/** A consumer of `alerts.fired.v1` beside the services, as webhook-dispatcher will be. */
@Module({ controllers: [FiredAlertsConsumer], providers: [FiredAlerts] })
class FiredAlertsModule {}

/** A position of the integrators' batch endpoint. */
export interface BatchPosition {
  deviceId: string;
  timestamp: string;
  lat: number;
  lon: number;
  speedKmh?: number;
  course?: number;
  ignition?: boolean;
}

export interface NewConfiguration {
  name?: string;
  alertTypeId: number;
  vehicleIds?: number[];
  tags?: string[];
  settings?: AlertSettings;
}

export interface StoredRecord {
  id: string;
  utc_time: Date;
  company_id: number;
  configuration_id: number;
  alert_type_id: number;
  vehicle_id: number;
  vehicle_name: string;
  description: string;
  lat: number;
  lng: number;
  course: number;
  address: string | null;
  address_parts: object | null;
  data: object | null;
}

/**
 * auth, telemetry-ingest, query-api and alert-engine in one test context, with a consumer of the
 * fired-alert topic. Configurations and geofences are made as the management routes will make them:
 * rows of alert-engine's schema and a rule version bump, in one transaction.
 */
export class AlertsContext extends TestContext {
  /** `also`: further services in the same app (the live stream's tests add command-gateway). */
  static open(
    database?: TestDatabase,
    env: Record<string, string> = {},
    also: { modules: (reader: EnvReader) => (Type | DynamicModule)[]; fixtures: TestFixtures[] } = {
      modules: () => [],
      fixtures: [],
    },
  ): Promise<AlertsContext> {
    return AlertsContext.start({
      modules: (reader) => [
        ...authModules(reader),
        ...telemetryIngestModules(reader),
        ...queryApiModules(reader),
        ...alertEngineModules(reader),
        FiredAlertsModule,
        ...also.modules(reader),
      ],
      fixtures: [
        authFixtures,
        queryApiFixtures,
        telemetryIngestFixtures,
        alertEngineFixtures,
        ...also.fixtures,
      ],
      env: { RATE_LIMIT_DEFAULT: 'second=100000', ...env },
      database,
    });
  }

  private get alerts(): DataSource {
    return this.app.get<DataSource>(getDataSourceToken('alerts'));
  }

  /** The fired-alert events this app's consumer received. */
  get fired(): AlertFiredV1[] {
    return this.app.get(FiredAlerts).events;
  }

  async newGeofence(companyId: number, name: string, shape: GeofenceShape): Promise<number> {
    return this.alerts.transaction(async (manager) => {
      const [{ id }] = await manager.query(
        'INSERT INTO alerts.geofences (company_id, name, shape) VALUES ($1, $2, $3) RETURNING id',
        [companyId, name, JSON.stringify(shape)],
      );
      await bumpRuleVersion(manager, companyId);
      return id as number;
    });
  }

  async newConfiguration(companyId: number, input: NewConfiguration): Promise<number> {
    return this.alerts.transaction(async (manager) => {
      const [{ id }] = await manager.query(
        `INSERT INTO alerts.configurations (company_id, name, alert_type_id, vehicle_ids, tags, settings)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [
          companyId,
          input.name ?? `Type ${input.alertTypeId}`,
          input.alertTypeId,
          input.vehicleIds ?? [],
          input.tags ?? [],
          JSON.stringify(input.settings ?? {}),
        ],
      );
      await bumpRuleVersion(manager, companyId);
      return id as number;
    });
  }

  /** Activates or deactivates a configuration, with its version bump, as the routes do. */
  async setConfigurationActive(companyId: number, configurationId: number, active: boolean): Promise<void> {
    await this.alerts.transaction(async (manager) => {
      await manager.query('UPDATE alerts.configurations SET is_active = $2 WHERE id = $1', [
        configurationId,
        active,
      ]);
      await bumpRuleVersion(manager, companyId);
    });
  }

  /** Sends positions through telemetry-ingest's batch endpoint (a token granted positions:write). */
  async report(token: string, positions: BatchPosition[]): Promise<void> {
    const response = await this.app.inject({
      method: 'POST',
      url: '/ingest/v1/positions',
      headers: { authorization: `Bearer ${token}` },
      payload: { positions },
    });
    if (response.statusCode !== 200) throw new Error(`batch: ${response.statusCode} ${response.body}`);
  }

  /** Publishes position events as telemetry-ingest would: for redeliveries, the same events again. */
  async publishPositions(events: PositionReportedV1[]): Promise<void> {
    await this.app.get(EventPublisher).publish(
      Topics.positions,
      events.map((event) => ({ key: String(event.vehicleId), payload: event })),
    );
  }

  /**
   * Gives a vehicle tags as the registry would (a newer snapshot), and waits until alert-engine's
   * projection has them.
   */
  async tagVehicle(vehicle: TestVehicle, tags: string[], version: number): Promise<void> {
    const snapshot: VehicleSnapshotV1 = {
      vehicleId: vehicle.id,
      name: vehicle.name,
      imei: vehicle.imei,
      vin: vehicle.vin,
      companyIds: vehicle.companyIds,
      tags,
      deleted: false,
      version,
      updatedAt: new Date().toISOString(),
    };
    await this.app
      .get(EventPublisher)
      .publish(Topics.vehicleSnapshots, [{ key: String(vehicle.id), payload: snapshot }]);
    await waitFor(
      async () =>
        (
          await this.database.pool.query(
            'SELECT 1 FROM alerts.vehicles WHERE vehicle_id = $1 AND tags = $2',
            [vehicle.id, tags],
          )
        ).rowCount === 1,
      { description: `vehicle ${vehicle.id} tagged ${tags.join(', ')}` },
    );
  }

  /**
   * Waits until everything published was evaluated, the outbox is empty and the consumer of the
   * fired-alert topic received an event for every record; then gives the records, oldest first.
   */
  async settledRecords(): Promise<StoredRecord[]> {
    await this.transportIdle();
    await waitFor(
      async () =>
        Number((await this.database.pool.query('SELECT count(*) AS n FROM alerts.outbox')).rows[0].n) === 0,
      { description: 'the alerts outbox to be relayed' },
    );
    await this.transportIdle();
    return this.records();
  }

  async records(): Promise<StoredRecord[]> {
    return (await this.database.pool.query('SELECT * FROM alerts.records ORDER BY utc_time, id')).rows;
  }
}
