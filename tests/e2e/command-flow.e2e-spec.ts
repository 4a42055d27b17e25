import { Topics } from '@fleet/contracts';
import { dataSourceOptions } from '@fleet/platform';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { createRegistryAdmin, querySchema } from '@fleet/query-api-service';
import {
  AppProcess,
  companySnapshot,
  createTestKafka,
  DistributedServices,
  pinTrackersToLoopback,
  TestDatabase,
  testAccessToken,
  waitFor,
} from '@fleet/testing';
import { Producer } from 'kafkajs';
import { DataSource } from 'typeorm';

const COMPANY = 1;
/** Vehicles commanded at once around the kill of command-gateway. */
const BURST = 12;

interface CommandAnswer {
  id: string;
  status: string;
}

interface HandedCommand {
  id: string;
  type: string;
  lock?: boolean;
  on?: boolean;
}

/**
 * Commands over real Kafka, each service its own process: command-gateway accepts them and publishes
 * through its outbox, telemetry-ingest hands device commands to a test device on the tracker port and
 * reports what the device answered, query-api applies odometer and rename commands to the registry.
 * command-gateway is killed with SIGKILL right after accepting a burst of commands, and
 * telemetry-ingest is down while a command is accepted: every accepted command still reaches its
 * device and ends acknowledged.
 */
describe('commands from the route to the device and the registry (separate processes, real Kafka)', () => {
  let database: TestDatabase;
  let producer: Producer;
  let registryData: DataSource;
  let services: DistributedServices;
  /** The running process of each service (replaced when a test restarts one). */
  const processes = new Map<string, AppProcess>();
  const commandsToken = testAccessToken(COMPANY, { actions: ['commands:send'] });
  const readToken = testAccessToken(COMPANY, { actions: ['vehicles:read'] });
  let clock = Date.now() - 60 * 60_000;

  const count = async (sql: string, params: unknown[] = []) =>
    Number((await database.pool.query(sql, params)).rows[0].n);

  /** A failed wait, with the services' output. */
  const explained = async <T>(wait: Promise<T>): Promise<T> => {
    try {
      return await wait;
    } catch (error) {
      const logs = [...processes.values()].map((process) => `--- ${process.app}\n${process.logs()}`);
      throw new Error(`${(error as Error).message}\n${logs.join('\n')}`);
    }
  };

  const gateway = () => processes.get('command-gateway')!;

  const command = async <T = CommandAnswer>(method: string, path: string): Promise<T> => {
    const response = await fetch(`${gateway().baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${commandsToken}` },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };

  const statusOf = async (id: string): Promise<string> => {
    const response = await fetch(`${gateway().baseUrl}/v2/api/commands/${id}`, {
      headers: { authorization: `Bearer ${commandsToken}` },
    });
    return ((await response.json()) as CommandAnswer).status;
  };

  const waitForStatus = (id: string, status: string) =>
    explained(
      waitFor(async () => (await statusOf(id)) === status, {
        timeoutMs: 20_000,
        description: `command ${id} to be ${status}`,
      }),
    );

  /** One report of a test device on the tracker port: the commands handed to it, if any. */
  const report = async (imei: string, fields: Record<string, string> = {}): Promise<HandedCommand[]> => {
    clock += 1_000;
    const query = new URLSearchParams({
      id: imei,
      lat: '52.52',
      lon: '13.405',
      timestamp: String(Math.floor(clock / 1_000)),
      ...fields,
    });
    const response = await fetch(`${processes.get('telemetry-ingest')!.deviceUrl}/?${query}`, {
      method: 'POST',
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    if (text === '') return [];
    expect(response.headers.get('content-type')).toContain('application/json');
    return (JSON.parse(text) as { commands: HandedCommand[] }).commands;
  };

  /** Reports until the device is handed something (commands reach ingest through Kafka). */
  const reportUntilHanded = (imei: string) =>
    explained(
      waitFor(
        async () => {
          const handed = await report(imei);
          return handed.length > 0 && handed;
        },
        { timeoutMs: 20_000, description: `a command handed to ${imei}` },
      ),
    );

  const lastPosition = async (vehicleId: number) => {
    const response = await fetch(
      `${processes.get('query-api')!.baseUrl}/v2/api/vehicles/${vehicleId}/last-position`,
      { headers: { authorization: `Bearer ${readToken}` } },
    );
    return (await response.json()) as {
      deviceName: string;
      isDoorLocked: boolean | null;
      odometer: number | null;
    };
  };

  const vehicles: { id: number; imei: string }[] = [];

  beforeAll(async () => {
    services = await DistributedServices.open('commands');
    const { namespace } = services;
    database = services.database;
    const [ingest, queryApi, commandGateway] = await Promise.all([
      services.start('telemetry-ingest'),
      services.start('query-api'),
      services.start('command-gateway'),
    ]);
    processes
      .set('telemetry-ingest', ingest)
      .set('query-api', queryApi)
      .set('command-gateway', commandGateway);
    producer = createTestKafka('command-flow-test').producer({ idempotent: true });
    await producer.connect();
    // The test plays auth; vehicles are registered in query-api's registry, as an operator would.
    await new KafkaEventPublisher(producer, namespace).publish(Topics.companySnapshots, [
      { key: String(COMPANY), payload: companySnapshot({ companyId: COMPANY }) },
    ]);
    registryData = await new DataSource(
      dataSourceOptions(querySchema, { url: database.url, migrateOnStart: false, poolSize: 2 }, 'test'),
    ).initialize();
    const registry = createRegistryAdmin(registryData).vehicles;
    for (let index = 0; index < BURST + 1; index++) {
      const imei = `35900${String(index).padStart(10, '0')}`;
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
    // Commands go only to devices that prove who they are: these test devices report from their pinned network.
    await pinTrackersToLoopback(
      database.pool,
      vehicles.map((vehicle) => vehicle.id),
    );
    // A first report per vehicle: ingest knows the company, query-api holds a last position.
    for (const vehicle of vehicles) await report(vehicle.imei, { odometer: '100000' });
  });

  afterAll(async () => {
    await producer?.disconnect();
    await registryData?.destroy();
    await services?.close();
  });

  it('hands a door lock to the device, which acknowledges it; the last position shows the doors locked', async () => {
    const [vehicle] = vehicles;
    const sent = await command('PUT', `/v2/api/vehicles/${vehicle.id}/door-lock?isLock=true`);
    expect(sent.status).toBe('queued');
    const handed = await reportUntilHanded(vehicle.imei);
    expect(handed).toEqual([{ id: sent.id, type: 'doorLock', lock: true }]);
    await waitForStatus(sent.id, 'sent');
    // The device carries it out and says so in its next report, with its new state.
    expect(await report(vehicle.imei, { cmdid: sent.id, cmdstatus: 'ok', lock: 'true' })).toEqual([]);
    await waitForStatus(sent.id, 'acknowledged');
    await explained(
      waitFor(async () => (await lastPosition(vehicle.id)).isDoorLocked === true, {
        description: 'the last position to show the doors locked',
      }),
    );
  });

  it('renames the vehicle and sets its odometer through query-api; later records carry both', async () => {
    const [vehicle] = vehicles;
    const renamed = await command(
      'PUT',
      `/v2/api/vehicles/${vehicle.id}/name?name=${encodeURIComponent('Cold van')}`,
    );
    const odometer = await command('PUT', `/v2/api/vehicles/${vehicle.id}/odometer?odometer=250`);
    await waitForStatus(renamed.id, 'acknowledged');
    await waitForStatus(odometer.id, 'acknowledged');
    // The device still reads 100 km (100,000 m); it moves 1 km.
    await report(vehicle.imei, { odometer: '101000' });
    await explained(
      waitFor(
        async () => {
          const position = await lastPosition(vehicle.id);
          return position.deviceName === 'Cold van' && position.odometer === 251;
        },
        { description: 'the last position to carry the new name and the offset odometer' },
      ),
    );
  });

  it('delivers a command accepted while telemetry-ingest was down, once it is back', async () => {
    const vehicle = vehicles[1];
    await processes.get('telemetry-ingest')!.kill('SIGKILL');
    const sent = await command('POST', `/v2/api/vehicles/${vehicle.id}/ignition?isOn=false`);
    processes.set('telemetry-ingest', await services.start('telemetry-ingest'));
    const handed = await reportUntilHanded(vehicle.imei);
    expect(handed).toEqual([{ id: sent.id, type: 'ignition', on: false }]);
    await report(vehicle.imei, { cmdid: sent.id, cmdstatus: 'ok', engine: 'false' });
    await waitForStatus(sent.id, 'acknowledged');
  });

  it('loses no accepted command when command-gateway is killed right after accepting them', async () => {
    const burst = vehicles.slice(1, 1 + BURST);
    const answers = await Promise.all(
      burst.map((vehicle) => command<{ CommandId: string }>('POST', `/api/UpdateLocation?id=${vehicle.id}`)),
    );
    const accepted = answers.map((answer) => answer.CommandId);
    await gateway().kill('SIGKILL');
    processes.set('command-gateway', await services.start('command-gateway'));
    for (const [index, vehicle] of burst.entries()) {
      const handed = await reportUntilHanded(vehicle.imei);
      expect(handed).toEqual([{ id: accepted[index], type: 'locate' }]);
      await report(vehicle.imei, { cmdid: accepted[index], cmdstatus: 'ok' });
    }
    for (const id of accepted) await waitForStatus(id, 'acknowledged');
    expect(
      await count('SELECT count(*) AS n FROM commands.commands WHERE id = ANY($1::uuid[])', [accepted]),
    ).toBe(BURST);
  });
});
