/**
 * What bench/trackers measures: the distributed mode (telemetry-ingest and query-api as processes on
 * Kafka and the machine's PostgreSQL, plus a second telemetry-ingest and command-gateway for the
 * command path) or the embedded app (`npm start`'s apps/fleet: one process, in-process transport,
 * embedded PostgreSQL). Both bind to 127.0.0.1 only; everything they start is registered for cleanup.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Topics } from '@fleet/contracts';
import type { EventPublisher } from '@fleet/platform';
import { authSchema, createAuthAdmin } from '@fleet/auth-service';
import { createRegistryAdmin, querySchema } from '@fleet/query-api-service';
import { Pool } from 'pg';
import { openBenchRun } from '../common/bench-run';
import { ProcessGroup } from '../common/cpu-meter';
import {
  benchDataSource,
  calibrate,
  freePort,
  kafkaClientFlag,
  log,
  repoRoot,
  ServiceProcess,
  sleep,
} from '../common/infra';
import { recordTimes } from '../common/record-times';
import { benchCompany, benchToken, benchVehicle, publishVehicles } from '../common/tenant';
import { ensureOpenFiles, onCleanup } from './lifecycle';
import { imeiOf } from './protocol';
import { countRows } from '../common/tables.queries';

/** The company owning the bench's vehicles (distributed mode: the bench plays auth). */
const FLEET_COMPANY = 1;
/** Vehicle snapshots per Kafka send. */
const SNAPSHOT_CHUNK = 1_000;
/** Registrations in flight in the embedded mode (the admin CLI's registry, one transaction each). */
const REGISTRATION_CONCURRENCY = 4;
const READY_TIMEOUT_MS = 300_000;

export interface BenchVehicle {
  index: number;
  id: number;
  imei: string;
}

/** Where commands are sent and which replicas hold the devices they go to. */
export interface CommandPath {
  /** Replicas the command devices connect to, spread evenly. */
  replicas: ServiceProcess[];
  routeBaseUrl: string;
  authorization: string;
  /** When each command's commands.requested.v1 record was written (epoch ms), distributed mode only. */
  onKafkaAt?: Map<string, number>;
}

export interface Setup {
  kind: 'distributed' | 'embedded';
  pool: Pool;
  /** The database the services use (the admin CLI's way in, for benches that need more keys). */
  databaseUrl: string;
  /** The process whose tracker port the connections and throughput phases use. */
  ingest: ServiceProcess;
  /** Every service process running now, for memory figures. */
  services(): ServiceProcess[];
  vehicles: BenchVehicle[];
  cpuGroups(generatorPids: () => number[]): Record<string, ProcessGroup>;
  /** Starts what the command path needs beyond the ingest path (idempotent). */
  commandPath(): Promise<CommandPath>;
}

/** Settings every bench service gets, whichever the mode. */
function commonEnv(connections: number): Record<string, string> {
  return {
    // Only this machine: the trackers' port would otherwise bind every interface.
    INGEST_DEVICE_HOST: '127.0.0.1',
    HTTP_HOST: '127.0.0.1',
    // Every bench device comes from 127.0.0.1; a real fleet comes from many addresses (default 1,000 each).
    INGEST_MAX_CONNECTIONS_PER_ADDRESS: String(connections + 1_000),
    RATE_LIMIT_STORE: 'memory',
    // The limiter runs, never refuses.
    RATE_LIMIT_DEFAULT: 'second=1000000',
    GEOCODER_PROVIDER: 'none',
    // Tracing off whatever the environment says: the default is measured.
    OTEL_EXPORTER_OTLP_ENDPOINT: '',
  };
}

async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs = READY_TIMEOUT_MS,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await probe())) {
    if (performance.now() > deadline)
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(250);
  }
}

async function startService(
  app: string,
  env: Record<string, string>,
  openFiles: number,
  options?: { asDeployed: boolean },
) {
  const service = await ServiceProcess.start(app, env, undefined, options);
  onCleanup(`${app} ${service.pid}`, () => service.stop());
  ensureOpenFiles(service.pid, openFiles, `${app} (pid ${service.pid})`);
  return service;
}

/** The fleet's company and vehicles on their topics, as auth and the registry publish them. */
async function publishFleet(registry: EventPublisher, vehicleCount: number): Promise<BenchVehicle[]> {
  log(`registering ${vehicleCount} vehicles (their snapshots on Kafka, as the registry publishes them)`);
  await registry.publish(Topics.companySnapshots, [
    { key: String(FLEET_COMPANY), payload: benchCompany(FLEET_COMPANY) },
  ]);
  const vehicles = Array.from({ length: vehicleCount }, (_, i) => ({
    index: i + 1,
    id: i + 1,
    imei: imeiOf(i + 1),
  }));
  for (let from = 0; from < vehicleCount; from += SNAPSHOT_CHUNK) {
    await publishVehicles(
      registry,
      vehicles
        .slice(from, from + SNAPSHOT_CHUNK)
        .map((vehicle) =>
          benchVehicle(vehicle.id, vehicle.imei, [FLEET_COMPANY], { name: `Tracker bench ${vehicle.index}` }),
        ),
    );
  }
  return vehicles;
}

/** telemetry-ingest and query-api on Kafka; the bench plays auth and the vehicle registry. */
export async function distributedSetup(
  vehicleCount: number,
  connections: number,
  calibration: ReturnType<typeof calibrate>,
): Promise<Setup> {
  const bench = await openBenchRun({ rateLimitStore: 'memory', env: commonEnv(connections), calibration });
  // Undone after the services (registered later, so stopped first).
  onCleanup('bench run (producer, pool, database, topics, Kafka)', () => bench.close());
  const { env, pool } = bench;
  const openFiles = connections + 2_000;

  // `--ingest-kafka-client platformatic`: telemetry-ingest alone on decision 0017's trial client.
  const ingest = await startService(
    'telemetry-ingest',
    { ...env, KAFKA_CLIENT: kafkaClientFlag('ingest-kafka-client') },
    openFiles,
  );
  const queryApi = await startService('query-api', env, 1_024);
  const services = [ingest, queryApi];

  const vehicles = await publishFleet(bench.publisher, vehicleCount);
  await waitFor(
    'telemetry-ingest to learn the vehicles',
    async () => (await countRows(pool, 'ingest.device_sessions')) >= vehicleCount,
  );
  log(`${vehicleCount} vehicles known to telemetry-ingest`);

  let commandPath: CommandPath | undefined;
  let second: ServiceProcess | undefined;
  let gateway: ServiceProcess | undefined;
  return {
    kind: 'distributed',
    pool,
    databaseUrl: bench.databaseUrl,
    ingest,
    services: () => [...services],
    vehicles,
    cpuGroups: (generatorPids) => ({
      'telemetry-ingest': { pids: () => [ingest.pid] },
      ...(second ? { 'telemetry-ingest-2': { pids: () => [second!.pid] } } : {}),
      'query-api': { pids: () => [queryApi.pid] },
      ...(gateway ? { 'command-gateway': { pids: () => [gateway!.pid] } } : {}),
      kafka: { pids: bench.kafka.pids },
      postgres: { command: 'postgres' },
      generator: { pids: generatorPids },
      bench: { pids: () => [process.pid] },
    }),
    commandPath: async () => {
      if (commandPath) return commandPath;
      log('command path: a second telemetry-ingest replica and command-gateway join');
      second = await startService('telemetry-ingest', env, openFiles);
      gateway = await startService('command-gateway', env, 1_024);
      services.push(second, gateway);
      await waitFor(
        'command-gateway to learn the vehicles',
        async () => (await countRows(pool, 'commands.vehicles')) >= vehicleCount,
      );
      // When each command reached Kafka (its record's timestamp, set by command-gateway's outbox relay).
      const requested = await recordTimes(bench.kafkaClient, bench.namespace, {
        topic: Topics.commandsRequested,
        group: 'bench-requested',
        keyOf: (command) => command.commandId,
      });
      onCleanup('bench consumer', () => requested.stop());
      commandPath = {
        replicas: [ingest, second],
        routeBaseUrl: gateway.baseUrl,
        authorization: `Bearer ${benchToken(bench.jwtSecret, FLEET_COMPANY, ['commands:send'])}`,
        onKafkaAt: requested.at,
      };
      return commandPath;
    },
  };
}

/** The company, its API key and the vehicles, through the admin CLI's way in (auth's and the registry's admin). */
async function registerThroughAdmin(databaseUrl: string, vehicleCount: number) {
  log(`registering ${vehicleCount} vehicles through query-api's registry (the admin CLI's way)`);
  const connect = (schema: typeof querySchema) =>
    benchDataSource(schema, databaseUrl, REGISTRATION_CONCURRENCY);
  const authSource = await connect(authSchema);
  const registrySource = await connect(querySchema);
  const vehicles: BenchVehicle[] = [];
  let apiKey: string;
  try {
    const auth = createAuthAdmin(authSource);
    const company = await auth.companies.create({
      name: 'Tracker bench',
      parentId: null,
      timeZone: 'Europe/Berlin',
    });
    ({ key: apiKey } = await auth.apiKeys.create({
      companyId: company.id,
      label: 'bench',
      actions: ['commands:send'],
    }));
    const registry = createRegistryAdmin(registrySource).vehicles;
    let next = 1;
    await Promise.all(
      Array.from({ length: REGISTRATION_CONCURRENCY }, async () => {
        while (next <= vehicleCount) {
          const index = next++;
          const imei = imeiOf(index);
          const vehicle = await registry.register({
            name: `Tracker bench ${index}`,
            imei,
            companyIds: [company.id],
          });
          vehicles.push({ index, id: vehicle.id, imei });
        }
      }),
    );
  } finally {
    await registrySource.destroy();
    await authSource.destroy();
  }
  vehicles.sort((a, b) => a.index - b.index);
  return { vehicles, apiKey };
}

/** The embedded app (`npm start`) on a fresh data directory: its own PostgreSQL, in-process transport. */
export async function embeddedSetup(vehicleCount: number, connections: number): Promise<Setup> {
  mkdirSync(join(repoRoot, '.data'), { recursive: true });
  const dataDir = mkdtempSync(join(repoRoot, '.data/bench-trackers-'));
  onCleanup('embedded data directory', () => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  // SIGTERM: the app stops its PostgreSQL after the services.
  const fleet = await startService(
    'fleet',
    {
      ...commonEnv(connections),
      FLEET_DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(port),
      FLEET_DEMO: 'false',
      FLEET_SIMULATOR: 'false',
      // Unset, whatever the bench's environment says: the embedded defaults are measured.
      DATABASE_URL: '',
      MESSAGING_TRANSPORT: '',
      KAFKA_BROKERS: '',
      AUTH_JWT_SECRET: '',
    },
    connections + 2_000,
    { asDeployed: false },
  );
  const password = encodeURIComponent(readFileSync(join(dataDir, 'postgres.password'), 'utf8').trim());
  const databaseUrl = `postgres://fleet:${password}@127.0.0.1:${port}/fleet`;
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  onCleanup('bench pool', () => pool.end());

  const { vehicles, apiKey } = await registerThroughAdmin(databaseUrl, vehicleCount);
  // The running app relays the registry's outbox to its own telemetry-ingest module.
  await waitFor(
    'telemetry-ingest to learn the vehicles',
    async () => (await countRows(pool, 'ingest.device_sessions')) >= vehicleCount,
  );
  log(`${vehicleCount} vehicles known to telemetry-ingest`);

  let commandPath: CommandPath | undefined;
  return {
    kind: 'embedded',
    pool,
    databaseUrl,
    ingest: fleet,
    services: () => [fleet],
    vehicles,
    cpuGroups: (generatorPids) => ({
      fleet: { pids: () => [fleet.pid] },
      postgres: { command: 'postgres' },
      generator: { pids: generatorPids },
      bench: { pids: () => [process.pid] },
    }),
    commandPath: async () => {
      if (commandPath) return commandPath;
      await waitFor(
        'command-gateway to learn the vehicles',
        async () => (await countRows(pool, 'commands.vehicles')) >= vehicleCount,
      );
      const issued = await fetch(`${fleet.baseUrl}/v2/api/authentication/token/api-key`, {
        method: 'POST',
        body: new URLSearchParams({ apiKey }),
      });
      if (issued.status !== 200) throw new Error(`bench token: ${issued.status} ${await issued.text()}`);
      const { access_token: token } = (await issued.json()) as { access_token: string };
      commandPath = { replicas: [fleet], routeBaseUrl: fleet.baseUrl, authorization: `Bearer ${token}` };
      return commandPath;
    },
  };
}
