import { request } from 'node:http';
import { connect } from 'node:net';
import { Topics } from '@fleet/contracts';
import { ExitCodes } from '@fleet/platform';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import {
  AppProcess,
  companySnapshot,
  createTestDatabase,
  createTestKafka,
  TestDatabase,
  testAccessToken,
  testJwtSecret,
  testKafkaBrokers,
  uniqueNamespace,
  vehicleSnapshot,
  waitFor,
} from '@fleet/testing';
import { Producer } from 'kafkajs';

const SHUTDOWN_TIMEOUT_SECONDS = 20;
const SHUTDOWN_DRAIN_SECONDS = 1;

interface Answer {
  status: number;
  body: string;
}

/**
 * One request on a connection of its own (no keep-alive), like an edge's new upstream connection.
 * Rejects with the socket error's code when the connection is refused or reset before any answer
 * (the request was never accepted); a response that starts and then breaks rejects with `TRUNCATED`.
 */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = request(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      agent: false,
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => reject(new Error(error.code ?? error.message)));
    outgoing.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('aborted', () => reject(new Error('TRUNCATED')));
      response.on('error', () => reject(new Error('TRUNCATED')));
      response.on('end', () => {
        if (!response.complete) reject(new Error('TRUNCATED'));
        else resolve({ status: response.statusCode ?? 0, body });
      });
    });
    outgoing.end(options.body);
  });
}

/** Errors that mean the connection was not accepted (the listener had closed): allowed after SIGTERM. */
const NOT_ACCEPTED = new Set(['ECONNREFUSED', 'ECONNRESET']);

/** What a client saw while it kept calling a service that was being stopped. */
class LoadRecord {
  readonly statuses: number[] = [];
  readonly notAccepted: string[] = [];
  readonly failures: string[] = [];
  answeredAfterSignal = 0;
  signalled = false;

  async run(call: () => Promise<Answer>, until: () => boolean): Promise<void> {
    while (!until()) {
      try {
        const answer = await call();
        this.statuses.push(answer.status);
        if (this.signalled) this.answeredAfterSignal++;
        if (answer.status >= 500) this.failures.push(`${answer.status}: ${answer.body}`);
      } catch (error) {
        const code = (error as Error).message;
        if (this.signalled && NOT_ACCEPTED.has(code)) this.notAccepted.push(code);
        else this.failures.push(code);
        // The listener is gone: nothing more will be accepted.
        if (code === 'ECONNREFUSED') return;
      }
    }
  }
}

/** A line of a service's JSON log, with the time the process recorded it. */
interface LogEvent {
  msg: string;
  at: number;
  fields: Record<string, unknown>;
}

/**
 * The process's own record of its stop, from now on: the log lines whose `msg` is one of `messages`,
 * in order. Recorded as they come, since a busy service's access log pushes them out of the tail that
 * `AppProcess.logs()` keeps before the stop ends.
 */
function recordTimeline(app: AppProcess, messages: string[]): LogEvent[] {
  const events: LogEvent[] = [];
  app.onLine((line) => {
    try {
      const fields = JSON.parse(line) as Record<string, unknown>;
      if (typeof fields.msg === 'string' && messages.includes(fields.msg))
        events.push({ msg: fields.msg, at: Date.parse(String(fields.time)), fields });
    } catch {
      // Not a JSON log line.
    }
  });
  return events;
}

/** Polls readiness until the process is gone; true if it ever answered 503 `shutting down`. */
async function watchReadiness(app: AppProcess, until: () => boolean): Promise<boolean> {
  let saw503 = false;
  while (!until() && !saw503) {
    try {
      const answer = await send(`${app.baseUrl}/health/ready`);
      saw503 = answer.status === 503 && JSON.parse(answer.body).status === 'shutting down';
    } catch {
      // Refused once the listener has closed.
    }
    // A pause between polls, so that the watcher does not crowd out the load it watches.
    if (!saw503) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return saw503;
}

/**
 * SIGTERM under load (docs/service-lifecycle.md): readiness turns 503 at once, what was accepted is
 * answered in full and kept, and the process exits 0 within SHUTDOWN_TIMEOUT_SECONDS.
 */
describe('graceful shutdown of a service under load (separate processes)', () => {
  let database: TestDatabase;
  let producer: Producer;
  let env: Record<string, string>;
  let ingest: AppProcess;
  let queryApi: AppProcess;
  let imeis: string[];

  beforeAll(async () => {
    database = await createTestDatabase();
    const namespace = uniqueNamespace('shutdown');
    env = {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_NAMESPACE: namespace,
      AUTH_JWT_SECRET: testJwtSecret,
      SHUTDOWN_TIMEOUT_SECONDS: String(SHUTDOWN_TIMEOUT_SECONDS),
      SHUTDOWN_DRAIN_SECONDS: String(SHUTDOWN_DRAIN_SECONDS),
      LOG_LEVEL: 'info',
      // The load is a client's, not an abuse: the default 60 per minute would answer 429s.
      RATE_LIMIT_DEFAULT: 'second=10000',
    };
    [ingest, queryApi] = await Promise.all([
      AppProcess.start('telemetry-ingest', env),
      AppProcess.start('query-api', env),
    ]);
    producer = createTestKafka('shutdown-test').producer({ idempotent: true });
    await producer.connect();
    const registry = new KafkaEventPublisher(producer, namespace);
    const vehicles = Array.from({ length: 10 }, () => vehicleSnapshot({ companyIds: [1] }));
    imeis = vehicles.map((vehicle) => vehicle.imei);
    await registry.publish(Topics.companySnapshots, [
      { key: '1', payload: companySnapshot({ companyId: 1 }) },
    ]);
    await registry.publish(
      Topics.vehicleSnapshots,
      vehicles.map((vehicle) => ({ key: String(vehicle.vehicleId), payload: vehicle })),
    );
  });

  afterAll(async () => {
    await Promise.all([ingest?.kill('SIGKILL'), queryApi?.kill('SIGKILL')]);
    await producer?.disconnect();
    await database?.drop();
  });

  const storedCount = async () =>
    Number((await database.pool.query('SELECT count(*) AS n FROM query.positions')).rows[0].n);

  /**
   * What every graceful stop under load must show: each accepted request answered 200, some after the
   * signal (HTTP keeps serving during the drain), readiness seen as 503 before the exit, and exit 0
   * (the SHUTDOWN_TIMEOUT_SECONDS guard exits 1, so 0 also says the stop ended within it). The times
   * come from the process's own log, not from this test's clock: it logged `stopping`, then turned
   * readiness to 503 and drained for the configured period before it logged `stopped`.
   */
  function expectGracefulStop({ record, exitCode, first503, timeline }: StopUnderLoad): void {
    expect(record.failures).toEqual([]);
    expect(record.statuses.every((status) => status === 200)).toBe(true);
    expect(record.answeredAfterSignal).toBeGreaterThan(0);
    expect(exitCode).toBe(ExitCodes.ok);
    expect(first503).toBe('before the exit');

    expect(timeline.map((event) => event.msg)).toEqual(['stopping', 'draining: readiness is 503', 'stopped']);
    const [stopping, draining, stopped] = timeline;
    expect(stopping.fields.signal).toBe('SIGTERM');
    expect(stopping.fields.timeoutMs).toBe(SHUTDOWN_TIMEOUT_SECONDS * 1000);
    expect(draining.fields.drainMs).toBe(SHUTDOWN_DRAIN_SECONDS * 1000);
    expect(stopped.at - draining.at).toBeGreaterThanOrEqual(SHUTDOWN_DRAIN_SECONDS * 1000);
  }

  interface StopUnderLoad {
    record: LoadRecord;
    exitCode: number | null;
    /** Whether the client saw readiness answer 503 `shutting down` while the process still ran. */
    first503: 'before the exit' | 'never';
    /** The process's `stopping`, `draining: readiness is 503` and `stopped` lines. */
    timeline: LogEvent[];
  }

  /** SIGTERMs `app` while `load` runs; returns what the client saw and the exit code. */
  async function stopUnderLoad(
    app: AppProcess,
    load: (record: LoadRecord, done: () => boolean) => Promise<void>,
  ): Promise<StopUnderLoad> {
    let exited = false;
    const record = new LoadRecord();
    const loading = load(record, () => exited);
    const watching = watchReadiness(app, () => exited);
    // Let the load run a moment before the signal, so that requests are in flight when it comes.
    await waitFor(async () => record.statuses.length >= 20, { description: 'load to flow' });
    record.signalled = true;
    const timeline = recordTimeline(app, ['stopping', 'draining: readiness is 503', 'stopped']);
    const exitCode = await app.kill('SIGTERM');
    exited = true;
    await loading;
    return { record, exitCode, first503: (await watching) ? 'before the exit' : 'never', timeline };
  }

  it('telemetry-ingest keeps every position batch it accepted before SIGTERM', async () => {
    const token = testAccessToken(1, { actions: ['positions:write'] });
    let sequence = 0;
    const batch = () => ({
      positions: imeis.map((imei, vehicle) => ({
        deviceId: imei,
        timestamp: new Date(Date.parse('2026-03-01T08:00:00Z') + sequence++ * 1_000).toISOString(),
        lat: 52 + vehicle / 100,
        lon: 13,
        speedKmh: 40,
      })),
    });
    let accepted = 0;
    const post = async () => {
      const answer = await send(`${ingest.baseUrl}/ingest/v1/positions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(batch()),
      });
      if (answer.status === 200) accepted += (JSON.parse(answer.body) as { accepted: number }).accepted;
      return answer;
    };
    // Ingest learns the vehicles and the company from their topics (all or nothing per batch).
    await waitFor(async () => (await post()).status === 200, { description: 'ingest to know the fleet' });

    expectGracefulStop(
      await stopUnderLoad(ingest, (load, done) =>
        Promise.all(Array.from({ length: 4 }, () => load.run(post, done))).then(() => undefined),
      ),
    );
    expect(ingest.logs()).toContain('"msg":"stopped"');

    // Everything accepted reaches query-api's store: nothing lost in the stop.
    await waitFor(async () => (await storedCount()) >= accepted, {
      timeoutMs: 30_000,
      description: `all ${accepted} accepted positions stored`,
    });
    expect(await storedCount()).toBe(accepted);
  });

  it('query-api answers every read it accepted, then exits 0 after readiness turned 503', async () => {
    const token = testAccessToken(1);
    const read = () =>
      send(`${queryApi.baseUrl}/v2/api/companies/1/vehicles/last-position`, {
        headers: { authorization: `Bearer ${token}` },
      });
    await waitFor(async () => (await read()).status === 200, {
      description: 'query-api to know the company',
    });

    expectGracefulStop(
      await stopUnderLoad(queryApi, (load, done) =>
        Promise.all(Array.from({ length: 4 }, () => load.run(read, done))).then(() => undefined),
      ),
    );
  });

  it('exits 1, logged, when the stop outlasts SHUTDOWN_TIMEOUT_SECONDS (a request body that never ends)', async () => {
    const stuck = await AppProcess.start('query-api', {
      ...env,
      SHUTDOWN_TIMEOUT_SECONDS: '3',
      SHUTDOWN_DRAIN_SECONDS: '1',
    });
    // A request whose body never completes stays in flight: closing HTTP waits for it.
    const { port } = new URL(stuck.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /v2/api/vehicles/list HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    try {
      const timeline = recordTimeline(stuck, ['stopping', 'shutdown took too long; exiting', 'stopped']);
      const exitCode = await stuck.kill('SIGTERM');
      expect(exitCode).toBe(ExitCodes.failure);
      // The process's own record: it gave up on the stop after the configured 3 s, not before.
      expect(timeline.map((event) => event.msg)).toEqual(['stopping', 'shutdown took too long; exiting']);
      const [stopping, gaveUp] = timeline;
      expect(gaveUp.fields.timeoutMs).toBe(3_000);
      expect(gaveUp.at - stopping.at).toBeGreaterThanOrEqual(3_000);
    } finally {
      socket.destroy();
    }
  });
});
