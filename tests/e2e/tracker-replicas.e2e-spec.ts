import { Topics } from '@fleet/contracts';
import { dataSourceOptions } from '@fleet/platform';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { createRegistryAdmin, querySchema } from '@fleet/query-api-service';
import { TeltonikaDevice } from '@fleet/simulator';
import {
  AppProcess,
  companySnapshot,
  createTestKafka,
  DistributedServices,
  pinTrackersToLoopback,
  testAccessToken,
  TestDatabase,
  waitFor,
} from '@fleet/testing';
import { AvlRecord } from '@fleet/trackers';
import { Producer } from 'kafkajs';
import { DataSource } from 'typeorm';

const COMPANY = 1;
/** Packets the streaming device sends, one record each, around the kill of its replica. */
const STREAM_PACKETS = 60;

/** A record `seconds` after `base`, moving north 10 m a second (plausible to the glitch rule). */
const record = (base: number, seconds: number): AvlRecord => ({
  timestamp: new Date(base + seconds * 1000),
  priority: 0,
  lat: 52.52 + seconds * 0.000_09,
  lng: 13.405,
  altitude: 30,
  angle: 0,
  satellites: 10,
  speed: 36,
  eventIoId: 0,
  io: new Map([[239, 1]]),
});

/**
 * Teltonika devices on two telemetry-ingest replicas over real Kafka, each service its own process:
 * a door lock reaches the device on whichever replica holds its connection (the replica that consumed
 * the request is found through PostgreSQL's NOTIFY, docs/decisions/0011), and a replica killed with
 * SIGKILL while a device streams loses none of the records it acknowledged: the device sends the
 * unacknowledged packet again to the other replica, as a real device does after a lost connection.
 */
describe('tracker sessions on two telemetry-ingest replicas (separate processes, real Kafka)', () => {
  let database: TestDatabase;
  let producer: Producer;
  let registryData: DataSource;
  let services: DistributedServices;
  const processes = new Map<string, AppProcess>();
  const devices: TeltonikaDevice[] = [];
  const commandsToken = testAccessToken(COMPANY, { actions: ['commands:send'] });
  const vehicles: { id: number; imei: string }[] = [];

  const explained = async <T>(wait: Promise<T>): Promise<T> => {
    try {
      return await wait;
    } catch (error) {
      const logs = [...processes.entries()].map(([name, process]) => `--- ${name}\n${process.logs()}`);
      throw new Error(`${(error as Error).message}\n${logs.join('\n')}`);
    }
  };

  const count = async (sql: string, params: unknown[] = []) =>
    Number((await database.pool.query(sql, params)).rows[0].n);

  const connect = async (replica: string, imei: string, answers = true) => {
    const { device, accepted } = await TeltonikaDevice.connect({
      host: '127.0.0.1',
      port: processes.get(replica)!.trackerPorts.teltonika,
      imei,
      onCommand: answers ? (text) => `done: ${text}` : undefined,
    });
    expect(accepted).toBe(true);
    devices.push(device);
    return device;
  };

  const statusOf = async (id: string): Promise<{ status: string; deviceAnswer: string | null }> => {
    const response = await fetch(`${processes.get('command-gateway')!.baseUrl}/v2/api/commands/${id}`, {
      headers: { authorization: `Bearer ${commandsToken}` },
    });
    return (await response.json()) as { status: string; deviceAnswer: string | null };
  };

  beforeAll(async () => {
    services = await DistributedServices.open('tracker-replicas', { INGEST_MAX_PLAUSIBLE_SPEED_KMH: '300' });
    const { namespace } = services;
    database = services.database;
    const [ingestA, ingestB, queryApi, commandGateway] = await Promise.all([
      services.start('telemetry-ingest'),
      services.start('telemetry-ingest'),
      services.start('query-api'),
      services.start('command-gateway'),
    ]);
    processes
      .set('ingest-a', ingestA)
      .set('ingest-b', ingestB)
      .set('query-api', queryApi)
      .set('command-gateway', commandGateway);
    producer = createTestKafka('tracker-replicas-test').producer({ idempotent: true });
    await producer.connect();
    await new KafkaEventPublisher(producer, namespace).publish(Topics.companySnapshots, [
      { key: String(COMPANY), payload: companySnapshot({ companyId: COMPANY }) },
    ]);
    registryData = await new DataSource(
      dataSourceOptions(querySchema, { url: database.url, migrateOnStart: false, poolSize: 2 }, 'test'),
    ).initialize();
    const registry = createRegistryAdmin(registryData).vehicles;
    for (let index = 0; index < 3; index++) {
      const imei = `35710${String(index).padStart(10, '0')}`;
      const vehicle = await registry.register({ name: `Van ${index}`, imei, companyIds: [COMPANY] });
      vehicles.push({ id: vehicle.id, imei });
    }
    await explained(
      waitFor(
        async () =>
          (await count('SELECT count(*) AS n FROM ingest.device_sessions')) === vehicles.length &&
          (await count('SELECT count(*) AS n FROM commands.vehicles')) === vehicles.length,
        { timeoutMs: 30_000, description: 'ingest and command-gateway to learn the vehicles' },
      ),
    );
    // Commands go only to devices that prove who they are: these connect from their pinned network.
    await pinTrackersToLoopback(
      database.pool,
      vehicles.map((vehicle) => vehicle.id),
    );
  });

  afterAll(async () => {
    for (const device of devices) device.close();
    await producer?.disconnect();
    await registryData?.destroy();
    await services?.close();
  });

  it('writes a door lock on the connection of whichever replica holds the device', async () => {
    const base = Date.now() - 60_000;
    const onA = await connect('ingest-a', vehicles[0].imei);
    const onB = await connect('ingest-b', vehicles[1].imei);
    // A first plausible fix of a pinned device makes its session one that commands may be sent on.
    expect(await onA.send([record(base, 0)])).toBe(1);
    expect(await onB.send([record(base, 0)])).toBe(1);
    const ids: string[] = [];
    for (const vehicle of vehicles.slice(0, 2)) {
      const response = await fetch(
        `${processes.get('command-gateway')!.baseUrl}/v2/api/vehicles/${vehicle.id}/door-lock?isLock=true`,
        { method: 'PUT', headers: { authorization: `Bearer ${commandsToken}` } },
      );
      expect(response.status).toBe(200);
      ids.push(((await response.json()) as { id: string }).id);
    }
    await explained(
      waitFor(
        async () =>
          (await Promise.all(ids.map(statusOf))).every((command) => command.status === 'acknowledged'),
        {
          timeoutMs: 20_000,
          description: 'both door locks acknowledged by their devices',
        },
      ),
    );
    expect([onA.commands, onB.commands]).toEqual([['setdigout ?1'], ['setdigout ?1']]);
    // The device's answer is part of the command's record.
    expect((await Promise.all(ids.map(statusOf))).map((command) => command.deviceAnswer)).toEqual([
      'done: setdigout ?1',
      'done: setdigout ?1',
    ]);
  });

  it('loses no acknowledged record when the replica holding the device is killed mid-stream', async () => {
    const vehicle = vehicles[2];
    const base = Date.now() - 3_600_000;
    let device = await connect('ingest-a', vehicle.imei, false);
    const acknowledged: number[] = [];
    let killed: Promise<unknown> | undefined;
    let reconnects = 0;
    for (let second = 0; second < STREAM_PACKETS; second++) {
      if (second === STREAM_PACKETS / 2) killed = processes.get('ingest-a')!.kill('SIGKILL');
      for (;;) {
        try {
          await device.send([record(base, second)], 0x08);
          acknowledged.push(second);
          break;
        } catch (error) {
          // The connection broke before the acknowledgement: reconnect elsewhere and send it again.
          if (reconnects > 0) throw error;
          device.close();
          device = await connect('ingest-b', vehicle.imei, false);
          reconnects++;
        }
      }
    }
    await killed;
    // The kill did break the stream: the device moved to the other replica.
    expect(reconnects).toBe(1);
    expect(acknowledged).toHaveLength(STREAM_PACKETS);
    await explained(
      waitFor(
        async () =>
          (await count('SELECT count(*) AS n FROM query.positions WHERE vehicle_id = $1', [vehicle.id])) ===
          STREAM_PACKETS,
        { timeoutMs: 30_000, description: `all ${STREAM_PACKETS} acknowledged records stored` },
      ),
    );
    const stored = await database.pool.query<{ fix_time: Date }>(
      'SELECT fix_time FROM query.positions WHERE vehicle_id = $1 ORDER BY fix_time',
      [vehicle.id],
    );
    expect(stored.rows.map((row) => (row.fix_time.getTime() - base) / 1000)).toEqual(acknowledged);
  });
});
