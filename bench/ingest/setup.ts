/**
 * What bench/ingest measures: telemetry-ingest and query-api as processes on Kafka (distributed), or
 * the embedded app (`--embedded`); and the OTLP sink the services export their spans to (`--tracing`).
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Topics } from '@fleet/contracts';
import { authSchema, createAuthAdmin } from '@fleet/auth-service';
import { createRegistryAdmin, querySchema } from '@fleet/query-api-service';
import { Pool } from 'pg';
import { openBenchRun } from '../common/bench-run';
import { CpuMeter } from '../common/cpu-meter';
import {
  benchDataSource,
  calibrate,
  freePort,
  kafkaClientFlag,
  repoRoot,
  ServiceProcess,
} from '../common/infra';
import { benchCompany, benchToken, benchVehicle, publishVehicles } from '../common/tenant';

export const VEHICLES = 1_000;
/** The company owning the bench's vehicles. */
const FLEET_COMPANY = 1;

/** What the OTLP sink received: export requests and their bytes. */
export interface SinkCounts {
  exports: number;
  bytes: number;
}

/**
 * A local OTLP/HTTP endpoint that accepts every export and keeps nothing: the services pay for
 * creating, batching and sending their spans, as with a real collector, and no collector's CPU is
 * counted. Sets OTEL_EXPORTER_OTLP_ENDPOINT for the services this bench starts.
 */
export async function startTraceSink(): Promise<{ server: Server; counts: SinkCounts }> {
  const counts: SinkCounts = { exports: 0, bytes: 0 };
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (counts.bytes += chunk.length));
    request.on('end', () => {
      counts.exports += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, counts };
}

export const imeiOf = (index: number) => `35${String(index).padStart(13, '0')}`;

/** What a phase measures: the processes that serve ingestion, and the database they write to. */
export interface Setup {
  databaseUrl: string;
  /** Two connections to that database, for the bench's own reads. */
  pool: Pool;
  /** telemetry-ingest's HTTP and device ports (the fleet app's in embedded mode). */
  ingest: ServiceProcess;
  services: ServiceProcess[];
  cpuGroups: ConstructorParameters<typeof CpuMeter>[0];
  /**
   * Makes the fleet's company and its 1,000 vehicles known to ingest (device sessions) and query-api;
   * resolves to the Authorization header of a token granted positions:write for that company.
   */
  registerFleet(): Promise<string>;
  stop(): Promise<void>;
}

/** telemetry-ingest and query-api as processes, on Kafka; the bench plays the vehicle registry. */
export async function distributedSetup(calibration: ReturnType<typeof calibrate>): Promise<Setup> {
  const bench = await openBenchRun({
    rateLimitStore: 'memory',
    env: { GEOCODER_PROVIDER: 'none', KAFKA_CLIENT: kafkaClientFlag() },
    calibration,
  });
  const services: ServiceProcess[] = [];
  const stop = async () => {
    await Promise.all(services.map((service) => service.stop()));
    await bench.close();
  };
  try {
    services.push(await ServiceProcess.start('telemetry-ingest', bench.env));
    services.push(await ServiceProcess.start('query-api', bench.env));
  } catch (error) {
    await stop();
    throw error;
  }
  const [ingest, queryApi] = services;
  return {
    databaseUrl: bench.databaseUrl,
    pool: bench.pool,
    ingest,
    services,
    cpuGroups: {
      'telemetry-ingest': { pids: () => [ingest.pid] },
      'query-api': { pids: () => [queryApi.pid] },
      kafka: { pids: bench.kafka.pids },
      postgres: { command: 'postgres' },
      bench: { pids: () => [process.pid] },
    },
    registerFleet: async () => {
      // The bench plays auth and the vehicle registry: the company and its vehicles on their topics.
      await bench.publisher.publish(Topics.companySnapshots, [
        { key: String(FLEET_COMPANY), payload: benchCompany(FLEET_COMPANY) },
      ]);
      await publishVehicles(
        bench.publisher,
        Array.from({ length: VEHICLES }, (_, index) =>
          benchVehicle(index + 1, imeiOf(index + 1), [FLEET_COMPANY]),
        ),
      );
      return `Bearer ${benchToken(bench.jwtSecret, FLEET_COMPANY, ['positions:write'])}`;
    },
    stop,
  };
}

/**
 * The company, its API key and the vehicles through the admin CLI's way in (auth's and the registry's
 * admin); the running `app` issues the key's token.
 */
async function registerThroughAdmin(app: ServiceProcess, databaseUrl: string): Promise<string> {
  // As `npm run admin` does: the running app relays auth's and query-api's outboxes.
  const connect = (schema: typeof querySchema) => benchDataSource(schema, databaseUrl, 2);
  const authSource = await connect(authSchema);
  const dataSource = await connect(querySchema);
  try {
    const auth = createAuthAdmin(authSource);
    const company = await auth.companies.create({
      name: 'Bench',
      parentId: null,
      timeZone: 'Europe/Berlin',
    });
    const { key } = await auth.apiKeys.create({
      companyId: company.id,
      label: 'bench',
      actions: ['positions:write'],
    });
    const registry = createRegistryAdmin(dataSource).vehicles;
    for (let index = 1; index <= VEHICLES; index++) {
      const vehicle = await registry.register({
        name: `Bench ${index}`,
        imei: imeiOf(index),
        companyIds: [company.id],
      });
      if (vehicle.id !== index)
        throw new Error(`vehicle ${index} got id ${vehicle.id}: not a fresh database`);
    }
    const issued = await fetch(`${app.baseUrl}/v2/api/authentication/token/api-key`, {
      method: 'POST',
      body: new URLSearchParams({ apiKey: key }),
    });
    if (issued.status !== 200) throw new Error(`bench token: ${issued.status} ${await issued.text()}`);
    return `Bearer ${((await issued.json()) as { access_token: string }).access_token}`;
  } finally {
    await dataSource.destroy();
    await authSource.destroy();
  }
}

/** The embedded app (`npm start`) on a fresh data directory: its own PostgreSQL, in-process transport. */
export async function embeddedSetup(): Promise<Setup> {
  mkdirSync(join(repoRoot, '.data'), { recursive: true });
  const dataDir = mkdtempSync(join(repoRoot, '.data/bench-embedded-'));
  const port = await freePort();
  let fleet: ServiceProcess | undefined;
  const stopApp = async () => {
    // SIGTERM: the app stops its PostgreSQL after the services.
    await fleet?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    fleet = await ServiceProcess.start(
      'fleet',
      {
        FLEET_DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(port),
        FLEET_DEMO: 'false',
        FLEET_SIMULATOR: 'false',
        RATE_LIMIT_STORE: 'memory',
        GEOCODER_PROVIDER: 'none',
        // Unset, whatever the bench's environment says: the embedded defaults are measured.
        DATABASE_URL: '',
        MESSAGING_TRANSPORT: '',
        KAFKA_BROKERS: '',
        AUTH_JWT_SECRET: '',
      },
      undefined,
      { asDeployed: false },
    );
  } catch (error) {
    await stopApp();
    throw error;
  }
  const app = fleet;
  const password = encodeURIComponent(readFileSync(join(dataDir, 'postgres.password'), 'utf8').trim());
  const databaseUrl = `postgres://fleet:${password}@127.0.0.1:${port}/fleet`;
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  return {
    databaseUrl,
    pool,
    ingest: app,
    services: [app],
    cpuGroups: {
      fleet: { pids: () => [app.pid] },
      postgres: { command: 'postgres' },
      bench: { pids: () => [process.pid] },
    },
    registerFleet: () => registerThroughAdmin(app, databaseUrl),
    stop: async () => {
      await pool.end();
      await stopApp();
    },
  };
}
