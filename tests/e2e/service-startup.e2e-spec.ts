import { ChildProcess, spawn } from 'node:child_process';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import { Topics } from '@fleet/contracts';
import { ExitCodes, jwtKeyIdOf } from '@fleet/platform';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import {
  AppProcess,
  companySnapshot,
  createTestDatabase,
  createTestKafka,
  freePort,
  redisAnswers,
  repoRoot,
  TestDatabase,
  testAccessToken,
  testJwtSecret,
  testKafkaBrokers,
  uniqueNamespace,
  waitFor,
} from '@fleet/testing';
import { Producer } from 'kafkajs';

/** Runs a compiled app until it exits by itself; returns its exit code, output and how long it ran. */
function runToExit(app: string, env: Record<string, string>, timeoutMs = 60_000) {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    ['-r', join(repoRoot, 'scripts/runtime-aliases.cjs'), join(repoRoot, `dist/apps/${app}/src/main.js`)],
    { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'pipe' },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ status: number | null; output: string; elapsedMs: number }>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, output, elapsedMs: Date.now() - started });
    });
  });
}

/** Holds `port` on every interface, as another process would. */
async function occupy(port: number): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '0.0.0.0', resolve));
  return server;
}

/** A throwaway Redis on `port`, in the foreground, so that the test can stop it. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  await waitFor(() => redisAnswers(`redis://127.0.0.1:${port}`, 500), {
    description: 'redis-server to answer',
  });
  return child;
}

interface ReadinessBody {
  status: string;
  checks: Record<string, string>;
  info: Record<string, string>;
}

const readiness = async (app: AppProcess) => {
  const response = await fetch(`${app.baseUrl}/health/ready`);
  return { status: response.status, body: (await response.json()) as ReadinessBody };
};

describe('service start-up problems a newcomer meets', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let producer: Producer;
  let registry: KafkaEventPublisher;
  /** The test plays auth's company snapshots (after a service has provisioned the topics). */
  const publishCompany = () =>
    registry.publish(Topics.companySnapshots, [{ key: '1', payload: companySnapshot({ companyId: 1 }) }]);
  const processes: AppProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const namespace = uniqueNamespace('startup');
    env = {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_NAMESPACE: namespace,
      AUTH_JWT_SECRET: testJwtSecret,
    };
    producer = createTestKafka('startup-test').producer({ idempotent: true });
    await producer.connect();
    registry = new KafkaEventPublisher(producer, namespace);
  });

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.kill('SIGKILL')));
    await producer?.disconnect();
    await database?.drop();
  });

  const read = (app: AppProcess, token = testAccessToken(1)) =>
    fetch(`${app.baseUrl}/v2/api/companies/1/vehicles/last-position`, {
      headers: { authorization: `Bearer ${token}` },
    });

  it('starts without Redis, degraded and serving, logs only JSON, and recovers when Redis comes', async () => {
    const redisPort = await freePort();
    const app = await AppProcess.start('query-api', { ...env, REDIS_URL: `redis://127.0.0.1:${redisPort}` });
    processes.push(app);
    await publishCompany();
    await waitFor(async () => (await read(app)).status === 200, {
      timeoutMs: 90_000,
      description: 'the company to be known',
    });
    expect(await readiness(app)).toMatchObject({
      status: 200,
      body: { status: 'degraded', checks: { redis: expect.stringMatching(/^down: /) } },
    });
    const lines = app.logs().split('\n').filter(Boolean);
    expect(lines.filter((line) => !line.startsWith('{'))).toEqual([]);
    expect(lines.map((line) => JSON.parse(line) as { msg?: string })).toContainEqual(
      expect.objectContaining({ context: 'Redis', msg: expect.stringContaining('REDIS_URL') }),
    );

    const redis = await startRedis(redisPort);
    try {
      await waitFor(async () => (await readiness(app)).body.status === 'ready', {
        timeoutMs: 15_000,
        description: 'readiness to see Redis back',
      });
      const limited = await read(app);
      expect(limited.status).toBe(200);
      expect(limited.headers.get('x-ratelimit-limit')).not.toBeNull();
    } finally {
      redis.kill('SIGKILL');
    }
    // Redis lost while running: still serving (fail-open), never a crash.
    await waitFor(async () => (await readiness(app)).body.status === 'degraded', {
      description: 'readiness to see Redis gone',
    });
    for (let index = 0; index < 5; index++) expect((await read(app)).status).toBe(200);
    expect(app.logs()).not.toMatch(/^\[ioredis\]/m);
  });

  it('logs when a token was signed with another AUTH_JWT_SECRET, leaves readiness alone, keeps old tokens without kid working', async () => {
    const secret = 'another-secret-of-this-service-0123456789abcdef';
    const app = await AppProcess.start('query-api', { ...env, AUTH_JWT_SECRET: secret });
    processes.push(app);
    await publishCompany();
    expect((await readiness(app)).body.info).toEqual({ jwtKeyId: jwtKeyIdOf(secret) });
    // A token without kid (issued before key ids) signed with this service's key is accepted.
    await waitFor(async () => (await read(app, testAccessToken(1, { secret }))).status === 200, {
      // The snapshot reaches a new consumer group through a rebalance: slow on a loaded machine.
      timeoutMs: 90_000,
      description: 'the company to be known',
    });

    const fromAuth = testAccessToken(1, { keyId: jwtKeyIdOf(testJwtSecret) });
    for (let index = 0; index < 3; index++) {
      const refused = await read(app, fromAuth);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ type: 'AUTHENTICATION', code: 'INVALID_CREDENTIALS' });
    }
    // Unverified tokens never inform readiness (anybody can send one with any kid), nor appear in it.
    const ready = await readiness(app);
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    expect(ready.body.checks['jwt-key']).toBeUndefined();
    expect(JSON.stringify(ready.body)).not.toContain(jwtKeyIdOf(testJwtSecret));
    // The operator learns of it from one warning that names both key ids.
    const warnings = app
      .logs()
      .split('\n')
      .filter((line) => line.includes("AUTH_JWT_SECRET differs from auth's"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(jwtKeyIdOf(testJwtSecret));
    expect(warnings[0]).toContain(jwtKeyIdOf(secret));
    expect(app.logs()).not.toContain(secret);
    expect(app.logs()).not.toContain(testJwtSecret);

    // A token of this service's own key id is accepted as ever.
    expect((await read(app, testAccessToken(1, { secret, keyId: jwtKeyIdOf(secret) }))).status).toBe(200);
  });

  it('answers a route it does not serve with a 404 naming the owner and its configured address', async () => {
    const app = await AppProcess.start('query-api', {
      ...env,
      SERVICE_URL_WEBHOOK_DISPATCHER: 'http://webhooks.internal:7006',
    });
    processes.push(app);
    const v2 = await fetch(`${app.baseUrl}/v2/api/webhooks/12/deliveries`);
    expect(v2.status).toBe(404);
    expect(await v2.json()).toEqual({
      type: 'RESOURCE',
      code: 'NOT_FOUND',
      description: expect.stringContaining('served by webhook-dispatcher (http://webhooks.internal:7006)'),
      requestId: expect.any(String),
    });
    const v1 = await fetch(`${app.baseUrl}/api/GetCompanies`, { method: 'POST' });
    expect(v1.status).toBe(404);
    expect(await v1.json()).toMatchObject({
      Code: 'NOT_FOUND',
      Message: expect.stringContaining('served by auth (http://127.0.0.1:3001)'),
    });
    // A path no service serves keeps the plain 404.
    const nowhere = await fetch(`${app.baseUrl}/v2/api/nothing-here`);
    expect(nowhere.status).toBe(404);
    expect(((await nowhere.json()) as { description: string }).description).not.toContain('served by');
  });

  it('logs the address it bound, not a guessed URL', async () => {
    const app = await AppProcess.start('query-api', { ...env, LOG_LEVEL: 'info', HTTP_HOST: '0.0.0.0' });
    processes.push(app);
    const port = new URL(app.baseUrl).port;
    const listening = app
      .logs()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; addresses?: string[] })
      .find((line) => line.msg === 'listening');
    expect(listening?.addresses).toEqual([`0.0.0.0:${port}`]);
  });

  it('serves the OpenAPI document with the public entry point as its server', async () => {
    const app = await AppProcess.start('auth', { ...env, PUBLIC_BASE_URL: 'https://fleet.example.com' });
    processes.push(app);
    const document = (await (await fetch(`${app.baseUrl}/v2/api/openapi.json`)).json()) as {
      servers: unknown;
    };
    expect(document.servers).toEqual([{ url: 'https://fleet.example.com' }]);
  });

  it('exits 78 naming HTTP_PORT when the port is taken', async () => {
    const port = await freePort();
    const holder = await occupy(port);
    try {
      const { status, output } = await runToExit('query-api', { ...env, HTTP_PORT: String(port) });
      expect(status).toBe(ExitCodes.config);
      expect(output).toContain(`HTTP_PORT=${port} is already in use`);
    } finally {
      holder.close();
    }
  });

  it('exits 78 naming INGEST_DEVICE_PORT when the tracker port is taken', async () => {
    const port = await freePort();
    const holder = await occupy(port);
    try {
      const { status, output } = await runToExit('telemetry-ingest', {
        ...env,
        HTTP_PORT: String(await freePort()),
        INGEST_DEVICE_PORT: String(port),
      });
      expect(status).toBe(ExitCodes.config);
      expect(output).toContain(`INGEST_DEVICE_PORT=${port} is already in use`);
    } finally {
      holder.close();
    }
  });

  it('exits 69 naming KAFKA_BROKERS within the start-up wait when no broker answers', async () => {
    const broker = `127.0.0.1:${await freePort()}`;
    const { status, output, elapsedMs } = await runToExit('query-api', {
      ...env,
      KAFKA_BROKERS: broker,
      STARTUP_WAIT_SECONDS: '2',
    });
    expect(status).toBe(ExitCodes.unavailable);
    expect(output).toContain(`KAFKA_BROKERS=${broker}`);
    expect(elapsedMs).toBeLessThan(20_000);
  });

  it('exits 69 naming the DATABASE_URL host, never its password, when PostgreSQL is unreachable', async () => {
    const port = await freePort();
    const { status, output, elapsedMs } = await runToExit('query-api', {
      ...env,
      DATABASE_URL: `postgres://fleet:s3cret-pw@127.0.0.1:${port}/fleet`,
      STARTUP_WAIT_SECONDS: '2',
    });
    expect(status).toBe(ExitCodes.unavailable);
    expect(output).toContain(`PostgreSQL at 127.0.0.1:${port} (DATABASE_URL) is unreachable`);
    expect(output).not.toContain('s3cret-pw');
    expect(elapsedMs).toBeLessThan(20_000);
  });

  it('exits 78 saying how to migrate when DB_MIGRATE_ON_START=false meets an empty database', async () => {
    const empty = await createTestDatabase();
    try {
      const { status, output } = await runToExit('query-api', {
        ...env,
        DATABASE_URL: empty.url,
        DB_MIGRATE_ON_START: 'false',
      });
      expect(status).toBe(ExitCodes.config);
      expect(output).toContain('migrations pending');
      expect(output).toContain('node dist/apps/query-api/src/migrate.js');
      expect(output).not.toContain('does not exist');
    } finally {
      await empty.drop();
    }
  });
});
