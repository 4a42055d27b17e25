import { randomUUID } from 'node:crypto';
import { authFixtures, authModules } from '@fleet/auth-service-testing';
import {
  CommandRequestedV1,
  CommandResultV1,
  decodeEvent,
  Topics,
  VehicleSnapshotV1,
} from '@fleet/contracts';
import { ConsumeEvents, EventBatch, EventPublisher } from '@fleet/platform';
import { InProcessBroker } from '@fleet/platform-transport';
import { QUERY_SCHEMA } from '@fleet/query-api-service';
import { queryApiFixtures, queryApiModules } from '@fleet/query-api-service-testing';
import { telemetryIngestFixtures, telemetryIngestModules } from '@fleet/telemetry-ingest-service-testing';
import { TestVehicle, waitFor } from '@fleet/testing';
import { Controller, Injectable, Module } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TelemetryContext } from './telemetry-context';

/** Every command result published on `commands.results.v1`, as command-gateway would receive them. */
@Injectable()
class ReceivedResults {
  readonly all: CommandResultV1[] = [];
}

@Controller()
class CommandResultsCollector {
  constructor(private readonly received: ReceivedResults) {}

  @ConsumeEvents(Topics.commandResults, { group: 'test-results' })
  async onResults(@Payload() batch: EventBatch<CommandResultV1>): Promise<void> {
    this.received.all.push(...batch.events.map((event) => event.payload));
  }
}

@Module({ controllers: [CommandResultsCollector], providers: [ReceivedResults] })
class CommandResultsModule {}

interface PositionV2 {
  utcTime: string;
  odometer: number | null;
  isDoorLocked: boolean | null;
  engineEnabled: boolean | null;
  deviceName: string;
}

interface PositionV1 {
  UtcTime: string;
  Odometer: number | null;
  IsDoorLocked: boolean | null;
  EngineEnabled: boolean | null;
  DeviceName: string;
}

/**
 * `odometer` and `name` commands as query-api applies them (issue 19): published on
 * `commands.requested.v1` as command-gateway publishes them, positions reported on the tracker port,
 * results read from `commands.results.v1`, records read through the V2 and V1 routes.
 */
describe('vehicle commands applied by query-api (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let dataSource: DataSource;
  let companyId: number;
  let token: string;
  const now = Math.floor(Date.now() / 1000);
  /** Fix times: minutes before now, so that every test's fixes are in the past and in order. */
  const minutesAgo = (minutes: number) => now - Math.round(minutes * 60);
  const utc = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().replace('.000Z', '');

  beforeAll(async () => {
    h = await TelemetryContext.start({
      modules: (reader) => [
        ...authModules(reader),
        ...telemetryIngestModules(reader),
        ...queryApiModules(reader),
        CommandResultsModule,
      ],
      fixtures: [authFixtures, queryApiFixtures, telemetryIngestFixtures],
      env: { RATE_LIMIT_DEFAULT: 'second=100000' },
    });
    dataSource = h.app.get<DataSource>(getDataSourceToken(QUERY_SCHEMA));
    ({ companyId, token } = await h.newTenant({ name: 'Commanded fleet', timeZone: 'UTC' }));
  });

  afterAll(async () => {
    await h?.close();
  });

  const command = (
    vehicleId: number,
    fields: Pick<CommandRequestedV1, 'type'> & Partial<CommandRequestedV1>,
  ): CommandRequestedV1 => ({
    commandId: randomUUID(),
    vehicleId,
    companyId,
    requestedAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 300_000).toISOString(),
    ...fields,
  });

  /** Publishes commands as command-gateway's outbox does (keyed by vehicle). */
  const send = async (...commands: CommandRequestedV1[]) =>
    h.app.get(EventPublisher).publish(
      Topics.commandsRequested,
      commands.map((payload) => ({ key: String(payload.vehicleId), payload })),
    );

  /**
   * Resolves once every command sent so far has been handled, every result it wrote to query-api's
   * outbox published, and every published result received.
   */
  const settled = async () => {
    await h.transportIdle();
    await waitFor(
      async () =>
        Number((await h.database.pool.query('SELECT count(*) AS n FROM query.outbox')).rows[0].n) === 0,
      { description: "query-api's outbox to be empty" },
    );
    await h.transportIdle();
  };

  const resultsOf = (commandId: string) =>
    h.app.get(ReceivedResults).all.filter((result) => result.commandId === commandId);

  /** Sends one command and returns its one result. */
  const apply = async (payload: CommandRequestedV1): Promise<CommandResultV1> => {
    await send(payload);
    await settled();
    const results = resultsOf(payload.commandId);
    expect(results).toHaveLength(1);
    return results[0];
  };

  const report = async (
    vehicle: TestVehicle,
    epochSeconds: number,
    fields: Record<string, string | number | boolean> = {},
  ) => {
    const answer = await h.osmand({
      id: vehicle.imei,
      timestamp: epochSeconds,
      lat: 52.52,
      lon: 13.4,
      ...fields,
    });
    expect(answer.status).toBe(200);
  };

  /** Reports, in order, and waits until query-api has projected them all. */
  const reportAll = async (
    vehicle: TestVehicle,
    reports: [number, Record<string, string | number | boolean>?][],
  ) => {
    for (const [at, fields] of reports) await report(vehicle, at, fields);
    await h.transportIdle();
  };

  const lastV2 = async (vehicle: TestVehicle) => {
    const response = await h.get(`/v2/api/vehicles/${vehicle.id}/last-position`, token);
    expect(response.statusCode).toBe(200);
    return response.json<PositionV2>();
  };

  const lastV1 = async (vehicle: TestVehicle) => {
    const response = await h.post(`/api/GetLastPositionData?id=${vehicle.id}`, token);
    expect(response.statusCode).toBe(200);
    return response.json<PositionV1>();
  };

  const historyV2 = async (vehicle: TestVehicle) => {
    const range = `from=${new Date((now - 86_400) * 1000).toISOString()}&to=${new Date(now * 1000).toISOString()}`;
    const response = await h.get(`/v2/api/vehicles/${vehicle.id}/positions?${range}&pageSize=100`, token);
    expect(response.statusCode).toBe(200);
    return response.json<{ items: PositionV2[] }>().items;
  };

  const historyV1 = async (vehicle: TestVehicle) => {
    const range = `from=${new Date((now - 86_400) * 1000).toISOString()}&to=${new Date(now * 1000).toISOString()}`;
    const response = await h.post(`/api/GetPositionData?id=${vehicle.id}&${range}`, token);
    expect(response.statusCode).toBe(200);
    return response.json<PositionV1[]>();
  };

  const snapshotsOf = async (vehicleId: number): Promise<VehicleSnapshotV1[]> =>
    (await h.app.get(InProcessBroker).peek(Topics.vehicleSnapshots.name))
      .filter((message) => message.key === String(vehicleId))
      .map((message) => decodeEvent(Topics.vehicleSnapshots, message.value));

  const registryRow = async (vehicleId: number) =>
    (
      await h.database.pool.query(
        'SELECT name, version, odometer_offset_m FROM query.vehicles WHERE id = $1',
        [vehicleId],
      )
    ).rows[0] as { name: string; version: number; odometer_offset_m: number };

  describe('name', () => {
    it('renames the vehicle: acknowledged, announced in a new snapshot, shown by V2 and V1 records old and new', async () => {
      const vehicle = await h.newVehicle({ name: 'Van 7', companyIds: [companyId] });
      await reportAll(vehicle, [[minutesAgo(50)]]);
      expect((await lastV2(vehicle)).deviceName).toBe('Van 7');

      const rename = command(vehicle.id, { type: 'name', name: '  Van 7 (north depot) ' });
      const result = await apply(rename);
      expect(result).toMatchObject({
        commandId: rename.commandId,
        vehicleId: vehicle.id,
        status: 'acknowledged',
      });
      expect(result.reason).toBeUndefined();
      expect(await registryRow(vehicle.id)).toMatchObject({ name: 'Van 7 (north depot)', version: 2 });
      const snapshots = await snapshotsOf(vehicle.id);
      expect(snapshots[snapshots.length - 1]).toMatchObject({
        vehicleId: vehicle.id,
        name: 'Van 7 (north depot)',
        version: 2,
        companyIds: [companyId],
      });

      await reportAll(vehicle, [[minutesAgo(49)]]);
      expect((await lastV2(vehicle)).deviceName).toBe('Van 7 (north depot)');
      expect((await lastV1(vehicle)).DeviceName).toBe('Van 7 (north depot)');
      // Names are read from the registry with every record, so history shows the current name too.
      expect((await historyV2(vehicle)).map((item) => item.deviceName)).toEqual([
        'Van 7 (north depot)',
        'Van 7 (north depot)',
      ]);
      expect((await historyV1(vehicle)).map((item) => item.DeviceName)).toEqual([
        'Van 7 (north depot)',
        'Van 7 (north depot)',
      ]);
    });

    it('applies a redelivered rename once: no second version, no second result', async () => {
      const vehicle = await h.newVehicle({ name: 'Once', companyIds: [companyId] });
      const rename = command(vehicle.id, { type: 'name', name: 'Renamed once' });
      await apply(rename);
      const versionsBefore = (await snapshotsOf(vehicle.id)).map((snapshot) => snapshot.version);

      await send(rename);
      await settled();
      expect(resultsOf(rename.commandId)).toHaveLength(1);
      expect(await registryRow(vehicle.id)).toMatchObject({ name: 'Renamed once', version: 2 });
      expect((await snapshotsOf(vehicle.id)).map((snapshot) => snapshot.version)).toEqual(versionsBefore);
    });

    it('refuses a name that is only spaces, and keeps the old one', async () => {
      const vehicle = await h.newVehicle({ name: 'Kept', companyIds: [companyId] });
      const result = await apply(command(vehicle.id, { type: 'name', name: '   ' }));
      expect(result).toMatchObject({
        status: 'failed',
        reason: 'name: must be 1 to 100 characters after trimming',
      });
      expect(await registryRow(vehicle.id)).toMatchObject({ name: 'Kept', version: 1 });
    });
  });

  describe('odometer', () => {
    it('makes records after it read the new value plus what the device counts; records before keep theirs', async () => {
      const vehicle = await h.newVehicle({ companyIds: [companyId] });
      await reportAll(vehicle, [[minutesAgo(40), { odometer: 10_000 }]]);
      expect((await lastV2(vehicle)).odometer).toBe(10);

      const set = command(vehicle.id, { type: 'odometer', odometerKm: 50 });
      expect(await apply(set)).toMatchObject({ commandId: set.commandId, status: 'acknowledged' });
      expect((await registryRow(vehicle.id)).odometer_offset_m).toBe(40_000);

      await reportAll(vehicle, [
        [minutesAgo(39), { odometer: 12_000 }],
        // A report without an odometer shows none: the offset applies to readings, it makes none up.
        [minutesAgo(38)],
      ]);
      expect((await lastV2(vehicle)).odometer).toBeNull();
      expect((await historyV2(vehicle)).map((item) => item.odometer)).toEqual([10, 52, null]);
      expect((await historyV1(vehicle)).map((item) => item.Odometer)).toEqual([10, 52, null]);

      // Set again before the device reports another reading: against its latest reading (12 km),
      // not against what the last record shows.
      await apply(command(vehicle.id, { type: 'odometer', odometerKm: 100 }));
      await reportAll(vehicle, [[minutesAgo(37), { odometer: 12_750 }]]);
      expect((await lastV2(vehicle)).odometer).toBe(100.75);
      expect((await lastV1(vehicle)).Odometer).toBe(100.75);
      expect((await historyV2(vehicle)).map((item) => item.odometer)).toEqual([10, 52, null, 100.75]);
    });

    it('applies a redelivered odometer command once, though the device has counted on meanwhile', async () => {
      const vehicle = await h.newVehicle({ companyIds: [companyId] });
      await reportAll(vehicle, [[minutesAgo(30), { odometer: 5_000 }]]);
      const set = command(vehicle.id, { type: 'odometer', odometerKm: 20 });
      await apply(set);
      await reportAll(vehicle, [[minutesAgo(29), { odometer: 6_000 }]]);
      expect((await lastV2(vehicle)).odometer).toBe(21);

      await send(set);
      await settled();
      expect(resultsOf(set.commandId)).toHaveLength(1);
      expect((await registryRow(vehicle.id)).odometer_offset_m).toBe(15_000);
      await reportAll(vehicle, [[minutesAgo(28), { odometer: 7_000 }]]);
      expect((await lastV2(vehicle)).odometer).toBe(22);
    });

    it('takes a device that never reported an odometer as reading 0, and shows a value once it reports one', async () => {
      const vehicle = await h.newVehicle({ companyIds: [companyId] });
      await reportAll(vehicle, [[minutesAgo(20)]]);
      await apply(command(vehicle.id, { type: 'odometer', odometerKm: 30 }));
      expect((await registryRow(vehicle.id)).odometer_offset_m).toBe(30_000);

      await reportAll(vehicle, [[minutesAgo(19)], [minutesAgo(18), { odometer: 500 }]]);
      expect((await historyV2(vehicle)).map((item) => item.odometer)).toEqual([null, null, 30.5]);
    });

    it('sets the odometer of a vehicle that has never reported', async () => {
      const vehicle = await h.newVehicle({ companyIds: [companyId] });
      expect(await apply(command(vehicle.id, { type: 'odometer', odometerKm: 1_234.5 }))).toMatchObject({
        status: 'acknowledged',
      });
      await reportAll(vehicle, [[minutesAgo(15), { odometer: 100 }]]);
      expect((await lastV2(vehicle)).odometer).toBe(1_234.6);
    });

    it('applies the offset to a report projected while the command holds the vehicle and its last position', async () => {
      const vehicle = await h.newVehicle({ companyIds: [companyId] });
      await reportAll(vehicle, [[minutesAgo(12), { odometer: 1_000 }]]);
      // A transaction as VehicleCommands runs it, held open: the next report must wait for it.
      const commandTransaction = dataSource.createQueryRunner();
      await commandTransaction.connect();
      try {
        await commandTransaction.startTransaction();
        await commandTransaction.query('SELECT id FROM query.vehicles WHERE id = $1 FOR UPDATE', [
          vehicle.id,
        ]);
        await commandTransaction.query(
          'SELECT device_odometer_m FROM query.last_positions WHERE vehicle_id = $1 FOR UPDATE',
          [vehicle.id],
        );
        await commandTransaction.query('UPDATE query.vehicles SET odometer_offset_m = 9000 WHERE id = $1', [
          vehicle.id,
        ]);
        await report(vehicle, minutesAgo(11), { odometer: 2_000 });
        await projectedOrWaiting(vehicle.id, 2);
        await commandTransaction.commitTransaction();
      } finally {
        await commandTransaction.release();
      }
      await h.storedPositions(vehicle.id, 2);
      expect((await lastV2(vehicle)).odometer).toBe(11);
    });

    it('applies the offset to a first report projected while the command holds the vehicle', async () => {
      const vehicle = await h.newVehicle({ companyIds: [companyId] });
      const commandTransaction = dataSource.createQueryRunner();
      await commandTransaction.connect();
      try {
        await commandTransaction.startTransaction();
        await commandTransaction.query('SELECT id FROM query.vehicles WHERE id = $1 FOR UPDATE', [
          vehicle.id,
        ]);
        await commandTransaction.query('UPDATE query.vehicles SET odometer_offset_m = 7000 WHERE id = $1', [
          vehicle.id,
        ]);
        await report(vehicle, minutesAgo(10), { odometer: 3_000 });
        await projectedOrWaiting(vehicle.id, 1);
        await commandTransaction.commitTransaction();
      } finally {
        await commandTransaction.release();
      }
      await h.storedPositions(vehicle.id, 1);
      expect((await lastV2(vehicle)).odometer).toBe(10);
    });
  });

  /** The projection either stored the vehicle's `count`-th position, or is waiting for a row lock. */
  const projectedOrWaiting = (vehicleId: number, count: number) =>
    waitFor(
      async () => {
        const { rows } = await h.database.pool.query(
          `SELECT (SELECT count(*) FROM query.positions WHERE vehicle_id = $1)::int AS stored,
                  (SELECT count(*) FROM pg_stat_activity
                    WHERE datname = current_database() AND wait_event_type = 'Lock')::int AS waiting`,
          [vehicleId],
        );
        return rows[0].stored >= count || rows[0].waiting > 0;
      },
      { description: `position ${count} of vehicle ${vehicleId} projected, or its projection waiting` },
    );

  describe('refusals', () => {
    it('answers failed for a vehicle the registry does not have, and remembers the command', async () => {
      const unknown = command(987_654, { type: 'odometer', odometerKm: 10 });
      expect(await apply(unknown)).toMatchObject({
        commandId: unknown.commandId,
        vehicleId: 987_654,
        status: 'failed',
        reason: 'vehicle 987654 does not exist',
      });
      const rename = command(987_655, { type: 'name', name: 'Ghost' });
      expect((await apply(rename)).reason).toBe('vehicle 987655 does not exist');

      await send(unknown);
      await settled();
      expect(resultsOf(unknown.commandId)).toHaveLength(1);
    });

    it('answers failed for a command that expired before query-api got it, and changes nothing', async () => {
      const vehicle = await h.newVehicle({ name: 'Too late', companyIds: [companyId] });
      const expiresAt = new Date(Date.now() - 1_000).toISOString();
      const late = command(vehicle.id, { type: 'name', name: 'Never', expiresAt });
      expect(await apply(late)).toMatchObject({
        status: 'failed',
        reason: `expired at ${expiresAt}, before query-api could apply it`,
      });
      expect(await registryRow(vehicle.id)).toMatchObject({
        name: 'Too late',
        version: 1,
        odometer_offset_m: 0,
      });
    });

    it('leaves device commands to telemetry-ingest: query-api neither applies nor claims them', async () => {
      const vehicle = await h.newVehicle({ name: 'Device only', companyIds: [companyId] });
      const lock = command(vehicle.id, { type: 'doorLock', lock: true });
      await send(lock, command(vehicle.id, { type: 'locate' }));
      await settled();
      const claimed = await h.database.pool.query(
        'SELECT count(*)::int AS n FROM query.applied_commands WHERE vehicle_id = $1',
        [vehicle.id],
      );
      expect(claimed.rows[0].n).toBe(0);
      expect(await registryRow(vehicle.id)).toMatchObject({ name: 'Device only', version: 1 });
      expect(
        h.app
          .get(ReceivedResults)
          .all.filter((result) => result.vehicleId === vehicle.id && result.status !== 'sent'),
      ).toEqual([]);
    });
  });

  describe('door and engine state', () => {
    it("shows the device's latest reported state in records whose report did not carry it, V2 and V1", async () => {
      const vehicle = await h.newVehicle({ companyIds: [companyId] });
      await reportAll(vehicle, [
        [minutesAgo(9), { lock: true, engine: false }],
        [minutesAgo(8)],
        [minutesAgo(7), { lock: false }],
        [minutesAgo(6)],
      ]);
      expect(await lastV2(vehicle)).toMatchObject({ isDoorLocked: false, engineEnabled: false });
      expect(await lastV1(vehicle)).toMatchObject({ IsDoorLocked: false, EngineEnabled: false });
      expect((await historyV2(vehicle)).map((item) => [item.isDoorLocked, item.engineEnabled])).toEqual([
        [true, false],
        [true, false],
        [false, false],
        [false, false],
      ]);
      expect((await historyV1(vehicle)).map((item) => [item.IsDoorLocked, item.EngineEnabled])).toEqual([
        [true, false],
        [true, false],
        [false, false],
        [false, false],
      ]);

      await reportAll(vehicle, [[minutesAgo(5), { engine: true }]]);
      expect(await lastV2(vehicle)).toMatchObject({ isDoorLocked: false, engineEnabled: true });
    });

    it('shows null until the device has reported a state, and stores a late fix as reported', async () => {
      const vehicle = await h.newVehicle({ companyIds: [companyId] });
      await reportAll(vehicle, [[minutesAgo(4)]]);
      expect(await lastV2(vehicle)).toMatchObject({ isDoorLocked: null, engineEnabled: null });

      await reportAll(vehicle, [[minutesAgo(3), { lock: true, engine: true }]]);
      // Buffered by the tracker and uploaded late: older than the last position, it carries nothing
      // forward and changes neither the last position nor later records.
      await reportAll(vehicle, [[minutesAgo(3.5)], [minutesAgo(3.2), { lock: false }]]);
      expect(await lastV2(vehicle)).toMatchObject({
        utcTime: utc(minutesAgo(3)),
        isDoorLocked: true,
        engineEnabled: true,
      });
      expect(
        (await historyV2(vehicle)).map((item) => [item.utcTime, item.isDoorLocked, item.engineEnabled]),
      ).toEqual([
        [utc(minutesAgo(4)), null, null],
        [utc(minutesAgo(3.5)), null, null],
        [utc(minutesAgo(3.2)), false, null],
        [utc(minutesAgo(3)), true, true],
      ]);
    });
  });
});
