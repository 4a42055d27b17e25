import { PositionReportedV1, Topics } from '@fleet/contracts';
import { dataSourceOptions } from '@fleet/platform';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { createRegistryAdmin, querySchema } from '@fleet/query-api-service';
import {
  AppProcess,
  companySnapshot,
  createTestKafka,
  DistributedServices,
  SseClient,
  TestDatabase,
  testAccessToken,
  TestVehicle,
  waitFor,
} from '@fleet/testing';
import { Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { drive, eventKey, recordKey } from '../live/live-fixtures';

const COMPANY = 1;
const OTHER_COMPANY = 2;

/**
 * The live stream on two query-api replicas over real Kafka, each its own process: a client whose
 * replica is killed (SIGKILL) reconnects to the other one with its last event id and gets every
 * position after it, none twice, each vehicle's in order; a client of another company sees none of
 * them (docs/stream.md, decision 0012).
 */
describe('live stream on two query-api replicas (separate processes, real Kafka)', () => {
  let services: DistributedServices;
  let database: TestDatabase;
  let producer: Producer;
  let publisher: KafkaEventPublisher;
  let registryData: DataSource;
  const replicas = new Map<'a' | 'b', AppProcess>();
  const vehicles: TestVehicle[] = [];
  let foreign: TestVehicle;
  const clients: SseClient[] = [];
  const token = testAccessToken(COMPANY);
  const otherToken = testAccessToken(OTHER_COMPANY);

  const explained = async <T>(wait: Promise<T>): Promise<T> => {
    try {
      return await wait;
    } catch (error) {
      const logs = [...replicas.entries()].map(
        ([name, process]) => `--- query-api ${name}\n${process.logs()}`,
      );
      throw new Error(`${(error as Error).message}\n${logs.join('\n')}`);
    }
  };

  const open = async (replica: 'a' | 'b', bearer: string, lastEventId?: string) => {
    const client = await SseClient.open(`${replicas.get(replica)!.baseUrl}/v2/api/stream?types=positions`, {
      token: bearer,
      lastEventId,
    });
    expect(client.status).toBe(200);
    clients.push(client);
    return client;
  };

  const publish = (events: PositionReportedV1[]) =>
    publisher.publish(
      Topics.positions,
      events.map((payload) => ({ key: String(payload.vehicleId), payload })),
    );

  beforeAll(async () => {
    services = await DistributedServices.open('stream-replicas', { GEOCODER_PROVIDER: 'none' });
    const { namespace } = services;
    database = services.database;
    const [a, b] = await Promise.all([services.start('query-api'), services.start('query-api')]);
    replicas.set('a', a).set('b', b);
    producer = createTestKafka('stream-replicas-test').producer({ idempotent: true });
    await producer.connect();
    publisher = new KafkaEventPublisher(producer, namespace);
    await publisher.publish(Topics.companySnapshots, [
      { key: String(COMPANY), payload: companySnapshot({ companyId: COMPANY }) },
      { key: String(OTHER_COMPANY), payload: companySnapshot({ companyId: OTHER_COMPANY }) },
    ]);
    registryData = await new DataSource(
      dataSourceOptions(querySchema, { url: database.url, migrateOnStart: false, poolSize: 2 }, 'test'),
    ).initialize();
    const registry = createRegistryAdmin(registryData).vehicles;
    for (let index = 0; index < 4; index++) {
      const imei = `35720${String(index).padStart(10, '0')}`;
      const vehicle = await registry.register({ name: `Van ${index}`, imei, companyIds: [COMPANY] });
      vehicles.push({ id: vehicle.id, name: vehicle.name, imei, vin: null, companyIds: [COMPANY], tags: [] });
    }
    const other = await registry.register({
      name: 'Other',
      imei: '357299999999999',
      companyIds: [OTHER_COMPANY],
    });
    foreign = {
      id: other.id,
      name: other.name,
      imei: other.imei,
      vin: null,
      companyIds: [OTHER_COMPANY],
      tags: [],
    };
    // Both replicas know both companies (a stream of an unknown company sees nothing).
    await explained(
      waitFor(
        async () => {
          const answers = await Promise.all(
            [...replicas.values()].map((replica) =>
              fetch(`${replica.baseUrl}/v2/api/companies/${COMPANY}/vehicles/last-position`, {
                headers: { authorization: `Bearer ${token}` },
              }),
            ),
          );
          return answers.every((answer) => answer.status === 200);
        },
        { timeoutMs: 30_000, description: 'both replicas to know the company' },
      ),
    );
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await producer?.disconnect();
    await registryData?.destroy();
    await services?.close();
  });

  it('resumes on the other replica, after a kill, exactly after the last event received', async () => {
    const first = await open('a', token);
    const outsider = await open('b', otherToken);
    const start = Date.now() - 3_600_000;
    const published: PositionReportedV1[] = [];
    // 40 rounds of one fix per vehicle, 100 ms apart; replica a is killed after round 15.
    const rounds = 40;
    let resumed: SseClient | undefined;
    for (let round = 0; round < rounds; round++) {
      const events = [...vehicles, foreign].map((vehicle) => drive(vehicle, start + round * 1000, 1)[0]);
      await publish(events);
      published.push(...events.filter((event) => event.vehicleId !== foreign.id));
      if (round === 15) {
        await explained(first.waitForEvents('position', 4, 20_000));
        await replicas.get('a')!.kill('SIGKILL');
        await first.closed;
        expect(first.lastEventId).toBeDefined();
        resumed = await open('b', token, first.lastEventId);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const expected = published.map(eventKey);
    await explained(
      waitFor(() => first.data('position').length + resumed!.data('position').length >= expected.length, {
        timeoutMs: 60_000,
        description: `all ${expected.length} positions across both connections`,
      }),
    );
    const got = [...first.data('position'), ...resumed!.data('position')].map(recordKey);
    expect(new Set(got).size).toBe(got.length);
    expect([...got].sort()).toEqual([...expected].sort());
    for (const vehicle of vehicles) {
      const times = got.filter((key) => key.startsWith(`${vehicle.id}@`));
      expect(times).toEqual([...times].sort());
    }
    // Another company's client saw its own vehicle only.
    await explained(outsider.waitForEvents('position', rounds, 30_000));
    expect(new Set(outsider.data('position').map((record) => record.deviceId))).toEqual(
      new Set([foreign.id]),
    );
  });
});
