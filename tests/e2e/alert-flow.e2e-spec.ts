import { alertsSchema, bumpRuleVersion } from '@fleet/alert-engine-service';
import { AlertFiredV1, Topics } from '@fleet/contracts';
import { dataSourceOptions, namespaced } from '@fleet/platform';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import {
  AppProcess,
  companySnapshot,
  createTestKafka,
  DistributedServices,
  TestDatabase,
  testAccessToken,
  vehicleSnapshot,
  waitFor,
} from '@fleet/testing';
import { Consumer, Producer } from 'kafkajs';
import { DataSource } from 'typeorm';

const VEHICLES = 20;
const BATCHES = 40;
const POSITIONS_PER_VEHICLE_PER_BATCH = 5;
/** Every tenth fix of a vehicle is above the maximum, the others well below: one episode each. */
const EPISODE_FIXES = 10;
const EXPECTED_RECORDS = (VEHICLES * BATCHES * POSITIONS_PER_VEHICLE_PER_BATCH) / EPISODE_FIXES;
/** Within the last day: records land in the partitions alert-engine keeps. */
const START = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 12 * 3_600_000;
const COMPANY = 1;

const speedOf = (fix: number) => (fix % EPISODE_FIXES === EPISODE_FIXES - 1 ? 130 : 50);

/** Batch `index` of the run: every vehicle reports a few positions, one second apart. */
function batch(index: number, imeis: string[]) {
  return {
    positions: imeis.flatMap((imei, vehicle) =>
      Array.from({ length: POSITIONS_PER_VEHICLE_PER_BATCH }, (_, i) => {
        const fix = index * POSITIONS_PER_VEHICLE_PER_BATCH + i;
        return {
          deviceId: imei,
          timestamp: new Date(START + fix * 1_000).toISOString(),
          lat: 52 + vehicle / 100,
          lon: 13 + fix / 10_000,
          speedKmh: speedOf(fix),
        };
      }),
    ),
  };
}

/**
 * Positions accepted by telemetry-ingest reach alert-engine over Kafka (beside query-api); alert-engine
 * is killed with SIGKILL while it evaluates, then restarted. Every expected alert record must exist
 * exactly once, and every record must have reached `alerts.fired.v1` through the outbox.
 */
describe('alerts from telemetry-ingest to alert-engine over Kafka (separate processes)', () => {
  let services: DistributedServices;
  let database: TestDatabase;
  let producer: Producer;
  let firedConsumer: Consumer;
  let registry: KafkaEventPublisher;
  let namespace: string;
  let ingest: AppProcess;
  let firstEngine: AppProcess;
  const fired: AlertFiredV1[] = [];

  const count = async (sql: string) => Number((await database.pool.query(sql)).rows[0].n);
  const recordCount = () => count('SELECT count(*) AS n FROM alerts.records');

  beforeAll(async () => {
    services = await DistributedServices.open('alerts');
    ({ database, namespace } = services);
    ingest = await services.start('telemetry-ingest');
    await services.start('query-api');
    firstEngine = await services.start('alert-engine');
    const kafka = createTestKafka('alert-flow-test');
    producer = kafka.producer({ idempotent: true });
    await producer.connect();
    // The test plays auth and the vehicle registry, and reads the fired alerts as webhook-dispatcher will.
    registry = new KafkaEventPublisher(producer, namespace);
    firedConsumer = kafka.consumer({ groupId: `${namespace}.test-fired-alerts` });
    await firedConsumer.connect();
    await firedConsumer.subscribe({
      topic: namespaced({ namespace }, Topics.alertsFired.name),
      fromBeginning: true,
    });
    await firedConsumer.run({
      eachMessage: async ({ message }) => {
        fired.push(JSON.parse(message.value!.toString()) as AlertFiredV1);
      },
    });
  });

  afterAll(async () => {
    await firedConsumer?.disconnect();
    await producer?.disconnect();
    await services?.close();
  });

  it('records every expected alert exactly once and publishes each, although alert-engine was killed mid-stream', async () => {
    const vehicles = Array.from({ length: VEHICLES }, () => vehicleSnapshot({ companyIds: [COMPANY] }));
    await registry.publish(Topics.companySnapshots, [
      { key: String(COMPANY), payload: companySnapshot({ companyId: COMPANY }) },
    ]);
    await registry.publish(
      Topics.vehicleSnapshots,
      vehicles.map((vehicle) => ({ key: String(vehicle.vehicleId), payload: vehicle })),
    );
    await waitFor(
      async () =>
        (await count('SELECT count(*) AS n FROM ingest.device_sessions')) === VEHICLES &&
        (await count('SELECT count(*) AS n FROM alerts.vehicles')) === VEHICLES,
      { description: 'ingest and alert-engine to learn the vehicles' },
    );
    // An overspeed configuration covering the company's every vehicle, as the management routes make one.
    const alerts = await new DataSource(
      dataSourceOptions(
        alertsSchema,
        { url: database.url, migrateOnStart: false, poolSize: 1 },
        'alert-flow-test',
      ),
    ).initialize();
    const configurationId: number = await alerts.transaction(async (manager) => {
      const [{ id }] = await manager.query(
        `INSERT INTO alerts.configurations (company_id, name, alert_type_id, settings)
         VALUES ($1, 'Speeding', 10, '{"maxSpeedKmh": 100}') RETURNING id`,
        [COMPANY],
      );
      await bumpRuleVersion(manager, COMPANY);
      return id;
    });
    await alerts.destroy();

    const imeis = vehicles.map((vehicle) => vehicle.imei);
    const send = (body: object) =>
      fetch(`${ingest.baseUrl}/ingest/v1/positions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${testAccessToken(COMPANY, { actions: ['positions:write'] })}`,
        },
        body: JSON.stringify(body),
      });
    // The company arrives on its own topic: a one-position batch tells when ingest knows it (the
    // position, below the maximum, comes again in the first batch and is evaluated once).
    await waitFor(async () => (await send({ positions: [batch(0, imeis).positions[0]] })).status === 200, {
      description: 'ingest to learn the company',
    });
    const sending = (async () => {
      for (let index = 0; index < BATCHES; index++) {
        const response = await send(batch(index, imeis));
        expect(response.status).toBe(200);
      }
    })();

    // Kill the engine while the stream flows: some records written, more positions arriving.
    await waitFor(async () => (await recordCount()) >= EXPECTED_RECORDS / 8, {
      description: 'alert-engine to record some alerts',
    });
    await firstEngine.kill('SIGKILL');
    const recordedWhenKilled = await recordCount();
    await sending;

    await services.start('alert-engine');
    await waitFor(
      async () =>
        (await recordCount()) >= EXPECTED_RECORDS &&
        (await count('SELECT count(*) AS n FROM alerts.outbox')) === 0,
      { timeoutMs: 90_000, description: `all ${EXPECTED_RECORDS} records, and the outbox relayed` },
    );

    expect(recordedWhenKilled).toBeLessThan(EXPECTED_RECORDS);
    const { rows } = await database.pool.query(
      `SELECT count(*) AS records, count(DISTINCT (vehicle_id, utc_time)) AS fixes, count(DISTINCT vehicle_id) AS vehicles,
              min(configuration_id) AS configuration, bool_and(data->>'speed' = '130') AS above
         FROM alerts.records`,
    );
    expect(rows[0]).toEqual({
      records: String(EXPECTED_RECORDS),
      fixes: String(EXPECTED_RECORDS),
      vehicles: String(VEHICLES),
      configuration: configurationId,
      above: true,
    });
    // Every record reached the topic (an event may come twice: the relay publishes at least once).
    const recordIds = (await database.pool.query('SELECT id FROM alerts.records')).rows.map((row) =>
      Number(row.id),
    );
    await waitFor(() => new Set(fired.map((event) => event.recordId)).size >= recordIds.length, {
      description: `an event for each of the ${recordIds.length} records`,
    });
    expect(new Set(fired.map((event) => event.recordId))).toEqual(new Set(recordIds));
  });
});
