import { Topics } from '@fleet/contracts';
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
import { Producer } from 'kafkajs';

const VEHICLES = 20;
const BATCHES = 40;
const POSITIONS_PER_VEHICLE_PER_BATCH = 5;
const TOTAL = VEHICLES * BATCHES * POSITIONS_PER_VEHICLE_PER_BATCH;
const START = Date.parse('2026-03-01T08:00:00Z');

/** Batch `index` of the run: every vehicle reports a few positions, each with a fix time of its own. */
function batch(index: number, imeis: string[]) {
  return {
    positions: imeis.flatMap((imei, vehicle) =>
      Array.from({ length: POSITIONS_PER_VEHICLE_PER_BATCH }, (_, i) => ({
        deviceId: imei,
        timestamp: new Date(START + (index * POSITIONS_PER_VEHICLE_PER_BATCH + i) * 1_000).toISOString(),
        lat: 52 + vehicle / 100,
        lon: 13 + (index * POSITIONS_PER_VEHICLE_PER_BATCH + i) / 10_000,
        speedKmh: 40,
      })),
    ),
  };
}

/**
 * The first real flow across processes: positions accepted by telemetry-ingest travel over Kafka and
 * are stored by query-api. query-api is killed with SIGKILL while it consumes, then restarted.
 */
describe('positions from telemetry-ingest to query-api over Kafka (separate processes)', () => {
  let services: DistributedServices;
  let database: TestDatabase;
  let producer: Producer;
  let registry: KafkaEventPublisher;
  let ingest: AppProcess;
  let firstQueryApi: AppProcess;

  const storedCount = async () =>
    Number((await database.pool.query('SELECT count(*) AS n FROM query.positions')).rows[0].n);

  beforeAll(async () => {
    services = await DistributedServices.open('flow');
    database = services.database;
    ingest = await services.start('telemetry-ingest');
    firstQueryApi = await services.start('query-api');
    producer = createTestKafka('flow-test').producer({ idempotent: true });
    await producer.connect();
    // The test plays the vehicle registry: ingest learns IMEIs from the snapshot topic.
    registry = new KafkaEventPublisher(producer, services.namespace);
  });

  afterAll(async () => {
    await producer?.disconnect();
    await services?.close();
  });

  it('stores every accepted position exactly once, although query-api was killed mid-stream', async () => {
    const vehicles = Array.from({ length: VEHICLES }, () => vehicleSnapshot({ companyIds: [1] }));
    await registry.publish(Topics.companySnapshots, [
      { key: '1', payload: companySnapshot({ companyId: 1 }) },
    ]);
    await registry.publish(
      Topics.vehicleSnapshots,
      vehicles.map((vehicle) => ({ key: String(vehicle.vehicleId), payload: vehicle })),
    );
    await waitFor(
      async () =>
        Number((await database.pool.query('SELECT count(*) AS n FROM ingest.device_sessions')).rows[0].n) ===
        VEHICLES,
      { description: 'ingest to learn the vehicles' },
    );

    const imeis = vehicles.map((vehicle) => vehicle.imei);
    const send = (body: object) =>
      fetch(`${ingest.baseUrl}/ingest/v1/positions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${testAccessToken(1, { actions: ['positions:write'] })}`,
        },
        body: JSON.stringify(body),
      });
    // The company arrives on its own topic: a one-position batch tells when ingest knows it (the
    // position comes again in the first batch; a repeated fix is stored once).
    await waitFor(
      async () => (await send({ positions: [{ ...batch(0, imeis).positions[0] }] })).status === 200,
      {
        description: 'ingest to learn the company',
      },
    );
    const sending = (async () => {
      for (let index = 0; index < BATCHES; index++) {
        const response = await send(batch(index, imeis));
        expect(response.status).toBe(200);
        // The probe's fix comes again in the first batch: taken, and refused as a duplicate.
        const repeated = index === 0 ? 1 : 0;
        expect(await response.json()).toEqual({
          accepted: VEHICLES * POSITIONS_PER_VEHICLE_PER_BATCH - repeated,
          refused: repeated,
        });
      }
    })();

    // Kill the consumer while the stream is flowing: part stored, more arriving.
    await waitFor(async () => (await storedCount()) >= TOTAL / 8, {
      description: 'query-api to store some positions',
    });
    await firstQueryApi.kill('SIGKILL');
    const storedWhenKilled = await storedCount();
    await sending;

    await services.start('query-api');
    await waitFor(async () => (await storedCount()) >= TOTAL, {
      timeoutMs: 60_000,
      description: `all ${TOTAL} positions`,
    });

    const { rows } = await database.pool.query(
      `SELECT count(*) AS stored, count(DISTINCT (vehicle_id, fix_time)) AS distinct_fixes, count(DISTINCT vehicle_id) AS vehicles
         FROM query.positions`,
    );
    expect(storedWhenKilled).toBeLessThan(TOTAL);
    expect(rows[0]).toEqual({
      stored: String(TOTAL),
      distinct_fixes: String(TOTAL),
      vehicles: String(VEHICLES),
    });
    // Every event id stored once, and each vehicle's last position is its newest fix.
    const events = await database.pool.query(`SELECT count(DISTINCT event_id) AS n FROM query.positions`);
    expect(events.rows[0].n).toBe(String(TOTAL));
    const last = await database.pool.query(
      `SELECT count(*) AS n FROM query.last_positions lp
        WHERE lp.fix_time = (SELECT max(fix_time) FROM query.positions p WHERE p.vehicle_id = lp.vehicle_id)`,
    );
    expect(last.rows[0].n).toBe(String(VEHICLES));
  });
});
