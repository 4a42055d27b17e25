import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { AlertTypes, ServiceName } from '@fleet/contracts';
import { Pool } from 'pg';
import { repoRoot } from '../repo-root';
import { adminTenant, apiKeyToken } from '../stack-tenant';
import { StackProcess } from '../stack-process';
import { waitFor } from '../wait-for';
import { WebhookReceiver } from '../webhook-receiver';
import { DedicatedPostgres, DedicatedRedis } from './dependencies';
import { AcceptedReport, TrackerLoad } from './tracker-load';

const run = promisify(execFile);

/** A fault the matrix injects while trackers report and alerts fire. */
export type FaultName =
  /** SIGKILL: a crash. */
  | `kill:${ServiceName}`
  | `kill:${ServiceName}-2`
  /** SIGTERM: a graceful stop, the way a rolling restart replaces a replica. */
  | `restart:${ServiceName}`
  | `restart:${ServiceName}-2`
  | 'restart-kafka'
  | 'postgres-outage'
  | 'redis-outage';

export const ALL_FAULTS: readonly FaultName[] = [
  'kill:auth',
  'kill:telemetry-ingest',
  'kill:query-api',
  'kill:command-gateway',
  'kill:alert-engine',
  'kill:webhook-dispatcher',
  'restart-kafka',
  'postgres-outage',
  'redis-outage',
];

export interface FaultMatrixOptions {
  faults: readonly FaultName[];
  vehicles: number;
  /** Between two reports of one tracker. */
  reportIntervalMs: number;
  /** Steady load before and after each fault. */
  steadySeconds: number;
  /** How long PostgreSQL and Redis stay away. */
  outageSeconds: number;
  /** Port offset of the stack (services, edge, trackers, broker) and its dedicated PostgreSQL and Redis. */
  portOffset: number;
  /** Clients reading through the edge at once, each every 100 ms (default 1, every 500 ms). */
  edgeReaders?: number;
  log: (message: string) => void;
}

/** What one fault cost: every count is over the reports whose fix time falls in the fault's phase. */
export interface FaultResult {
  fault: FaultName;
  positions: { accepted: number; stored: number; lost: number };
  alerts: { fired: number; recorded: number; lost: number };
  deliveries: { due: number; received: number; lost: number; duplicates: number };
  /** Answers of 500 and above: on the tracker port (retried by the trackers) and through the edge (readers). */
  serverErrors: { trackerPort: number; edge: number };
  /** Reports the trackers had to send again: any answer but 200, refused connections and timeouts included. */
  trackerResends: number;
  /** How long the dependency was away (stopped until started and answering again); 0 for a process fault. */
  outageSeconds: number;
  /** From the fault (or, for an outage, the dependency's return) until every process is ready and a new report is stored. */
  recoverySeconds: number;
  /** Processes that ended during the phase (and were started again by the stack), by name. */
  restarts: Record<string, number>;
}

interface Phase {
  fault: FaultName;
  from: number;
  to: number;
  trackerErrorsBefore: number;
  trackerErrorsAfter: number;
  trackerResends: number;
  edgeErrors: number;
  outageSeconds: number;
  recoverySeconds: number;
  restarts: Record<string, number>;
}

/**
 * The fault matrix of the distributed mode: `npm run stack` on a PostgreSQL and a Redis of its own,
 * a steady tracker load with an overspeed episode every tenth report, a global webhook to a local
 * receiver; then, one after the other, each fault with steady load before and after. Afterwards every
 * accepted report, every alert it fired and every delivery is looked for.
 */
export async function runFaultMatrix(options: FaultMatrixOptions): Promise<FaultResult[]> {
  const { log } = options;
  const dataDir = mkdtempSync(join(tmpdir(), 'fleet-faults-'));
  const postgres = await DedicatedPostgres.start(54_400 + Math.floor(options.portOffset / 1000));
  const redis = new DedicatedRedis(16_400 + Math.floor(options.portOffset / 1000));
  await redis.start();
  const receiver = await WebhookReceiver.start();
  const pool = new Pool({ connectionString: postgres.url, max: 2 });
  pool.on('error', () => undefined);
  let stack: StackProcess | undefined;
  try {
    log('starting the stack');
    stack = await StackProcess.start(
      [
        '--no-demo',
        '--entry',
        'nginx',
        '--replicas',
        'query-api=2,webhook-dispatcher=2',
        '--port-offset',
        String(options.portOffset),
      ],
      {
        DATABASE_URL: postgres.url,
        REDIS_URL: redis.url,
        WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.1/32',
        LOG_LEVEL: 'warn',
        KAFKA_SESSION_TIMEOUT_MS: '6000',
      },
      dataDir,
    );
    const state = stack.state();
    const edge = state.entry!.url;
    const tenant = await createTenant(postgres.url, edge, options.vehicles, receiver.url('/faults'));
    log(`tenant ${tenant.companyId} with ${tenant.vehicles.length} vehicles`);
    // An hour back: apart from the fixes of the load, which start now.
    const warmUpFix = Math.floor(Date.now() / 1000) - 3600;
    await waitFor(
      async () =>
        (
          await Promise.all(
            tenant.vehicles.map((vehicle) =>
              fetch(`${state.trackers}/?id=${vehicle.imei}&lat=52&lon=13&timestamp=${warmUpFix}`, {
                method: 'POST',
              }).then((response) => response.status),
            ),
          )
        ).every((status) => status === 200),
      { timeoutMs: 120_000, intervalMs: 250, description: 'telemetry-ingest to know every vehicle' },
    );

    const load = new TrackerLoad(state.trackers, tenant.vehicles, options.reportIntervalMs);
    const reader = new EdgeReader(edge, tenant.token, tenant.companyId, options.edgeReaders ?? 1);
    load.start();
    reader.start();
    const phases: Phase[] = [];
    for (const fault of options.faults) {
      const from = Math.floor(Date.now() / 1000);
      const restartsBefore = restartCounts(stack);
      const trackerErrorsBefore = load.serverErrors();
      const resendsBefore = load.refusedTotal();
      const edgeErrorsBefore = reader.serverErrors;
      await delay(options.steadySeconds * 1000);
      log(`fault: ${fault}`);
      const injectedAt = Date.now();
      const recoveredFrom = await inject(fault, { stack, postgres, redis, dataDir, options });
      const outageSeconds = fault.includes(':') ? 0 : (recoveredFrom - injectedAt) / 1000;
      const recoverySeconds = await measureRecovery(stack, pool, load, recoveredFrom);
      log(`  recovered in ${recoverySeconds.toFixed(1)} s`);
      await delay(options.steadySeconds * 1000);
      phases.push({
        fault,
        from,
        to: Math.floor(Date.now() / 1000),
        trackerErrorsBefore,
        trackerErrorsAfter: load.serverErrors(),
        trackerResends: load.refusedTotal() - resendsBefore,
        edgeErrors: reader.serverErrors - edgeErrorsBefore,
        outageSeconds,
        recoverySeconds,
        restarts: Object.fromEntries(
          Object.entries(restartCounts(stack))
            .map(([name, count]) => [name, count - (restartsBefore[name] ?? 0)] as const)
            .filter(([, count]) => count !== 0),
        ),
      });
    }
    log('stopping the load; waiting for everything accepted to arrive');
    await reader.stop();
    await load.stop();
    const outcome = await drain(pool, tenant.companyId, load.accepted, receiver);
    return phases.map((phase) => resultOf(phase, load.accepted, outcome));
  } finally {
    await stack?.interrupt().catch(() => stack?.kill());
    await pool.end();
    await receiver.close();
    await redis.stop();
    await postgres.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function inject(
  fault: FaultName,
  context: {
    stack: StackProcess;
    postgres: DedicatedPostgres;
    redis: DedicatedRedis;
    dataDir: string;
    options: FaultMatrixOptions;
  },
): Promise<number> {
  const { stack, postgres, redis, options } = context;
  if (fault.startsWith('kill:') || fault.startsWith('restart:')) {
    const [kind, name] = fault.split(':');
    const target = stack.state().processes.find((process) => process.name === name);
    if (!target?.pid) throw new Error(`no process ${name} in the stack`);
    // kill: a crash, no shutdown code runs. restart: SIGTERM, the graceful stop of a rolling restart.
    // Either way the stack starts it again, as an orchestrator would.
    process.kill(target.pid, kind === 'kill' ? 'SIGKILL' : 'SIGTERM');
    const since = Date.now();
    await waitFor(
      () => {
        const now = stack.state().processes.find((process) => process.name === name);
        return now?.pid !== undefined && now.pid !== target.pid;
      },
      { timeoutMs: 120_000, intervalMs: 250, description: `${name} to be started again` },
    );
    return since;
  }
  if (fault === 'restart-kafka') {
    const env = {
      ...process.env,
      KAFKA_PORT: String(9092 + options.portOffset),
      KAFKA_CONTROLLER_PORT: String(9093 + options.portOffset),
      KAFKA_DATA_DIR: join(context.dataDir, 'kafka'),
    };
    await run('bash', [join(repoRoot, 'scripts/kafka.sh'), 'stop'], { env });
    await run('bash', [join(repoRoot, 'scripts/kafka.sh'), 'start'], { env });
    return Date.now();
  }
  const [stop, start] =
    fault === 'postgres-outage'
      ? [() => postgres.stop(), () => postgres.start()]
      : [() => redis.stop(), () => redis.start()];
  await stop();
  await delay(options.outageSeconds * 1000);
  await start();
  return Date.now();
}

/** Seconds from `since` until every process answers ready and the newest accepted report is stored. */
async function measureRecovery(
  stack: StackProcess,
  pool: Pool,
  load: TrackerLoad,
  since: number,
): Promise<number> {
  await waitFor(
    async () => {
      const urls = stack.state().processes.flatMap((process) => (process.url ? [process.url] : []));
      const ready = await Promise.all(
        urls.map((url) =>
          fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(2_000) }).then(
            (response) => response.status === 200,
            () => false,
          ),
        ),
      );
      if (!ready.every(Boolean)) return false;
      const probeFrom = Date.now();
      // A report accepted after readiness, then found in the history.
      const fresh = await waitFor(
        () => load.accepted.findLast((report) => report.fixTime * 1000 >= probeFrom - 1000),
        { timeoutMs: 30_000, intervalMs: 250, description: 'a report accepted after recovery' },
      );
      return waitFor(
        async () =>
          (
            await pool
              .query('SELECT 1 FROM query.positions WHERE vehicle_id = $1 AND fix_time = to_timestamp($2)', [
                fresh.vehicleId,
                fresh.fixTime,
              ])
              .catch(() => ({ rowCount: 0 }))
          ).rowCount === 1,
        { timeoutMs: 60_000, intervalMs: 250, description: 'the report to be stored' },
      );
    },
    { timeoutMs: 300_000, intervalMs: 250, description: 'recovery' },
  );
  return (Date.now() - since) / 1000;
}

interface Outcome {
  storedPositions: Set<string>;
  recordedAlerts: Set<string>;
  /** Deliveries received per alert (vehicle and trigger time). */
  deliveries: Map<string, number>;
}

const keyOf = (vehicleId: number, epochSeconds: number) => `${vehicleId}@${epochSeconds}`;

/** Waits until what was accepted is stored, fired and delivered (or 3 minutes pass), then reads it all. */
async function drain(
  pool: Pool,
  companyId: number,
  accepted: AcceptedReport[],
  receiver: WebhookReceiver,
): Promise<Outcome> {
  const read = async (): Promise<Outcome> => {
    const positions = await pool.query<{ vehicle_id: number; t: string }>(
      'SELECT vehicle_id, extract(epoch FROM fix_time)::bigint AS t FROM query.positions WHERE vehicle_id = ANY($1)',
      [[...new Set(accepted.map((report) => report.vehicleId))]],
    );
    const records = await pool.query<{ vehicle_id: number; t: string }>(
      'SELECT vehicle_id, extract(epoch FROM utc_time)::bigint AS t FROM alerts.records WHERE company_id = $1',
      [companyId],
    );
    const deliveries = new Map<string, number>();
    for (const request of receiver.on('/faults')) {
      const body = JSON.parse(request.body) as { VehicleId: number; Timestamp: string };
      const key = keyOf(body.VehicleId, Math.floor(Date.parse(body.Timestamp) / 1000));
      deliveries.set(key, (deliveries.get(key) ?? 0) + 1);
    }
    return {
      storedPositions: new Set(positions.rows.map((row) => keyOf(row.vehicle_id, Number(row.t)))),
      recordedAlerts: new Set(records.rows.map((row) => keyOf(row.vehicle_id, Number(row.t)))),
      deliveries,
    };
  };
  const complete = (outcome: Outcome) =>
    accepted.every((report) => outcome.storedPositions.has(keyOf(report.vehicleId, report.fixTime))) &&
    accepted
      .filter((report) => report.fast)
      .every((report) => outcome.recordedAlerts.has(keyOf(report.vehicleId, report.fixTime))) &&
    [...outcome.recordedAlerts].every((key) => outcome.deliveries.has(key));
  const deadline = Date.now() + 180_000;
  let outcome = await read();
  while (!complete(outcome) && Date.now() < deadline) {
    await delay(1_000);
    outcome = await read();
  }
  return outcome;
}

function resultOf(phase: Phase, accepted: AcceptedReport[], outcome: Outcome): FaultResult {
  const inPhase = accepted.filter((report) => report.fixTime >= phase.from && report.fixTime < phase.to);
  const keys = inPhase.map((report) => keyOf(report.vehicleId, report.fixTime));
  const fired = inPhase
    .filter((report) => report.fast)
    .map((report) => keyOf(report.vehicleId, report.fixTime));
  const recorded = [...outcome.recordedAlerts].filter((key) => {
    const seconds = Number(key.split('@')[1]);
    return seconds >= phase.from && seconds < phase.to;
  });
  const received = recorded.filter((key) => outcome.deliveries.has(key));
  const requests = recorded.reduce((sum, key) => sum + (outcome.deliveries.get(key) ?? 0), 0);
  const stored = keys.filter((key) => outcome.storedPositions.has(key)).length;
  return {
    fault: phase.fault,
    positions: { accepted: keys.length, stored, lost: keys.length - stored },
    alerts: {
      fired: fired.length,
      recorded: fired.filter((key) => outcome.recordedAlerts.has(key)).length,
      lost: fired.filter((key) => !outcome.recordedAlerts.has(key)).length,
    },
    deliveries: {
      due: recorded.length,
      received: received.length,
      lost: recorded.length - received.length,
      duplicates: requests - received.length,
    },
    serverErrors: {
      trackerPort: phase.trackerErrorsAfter - phase.trackerErrorsBefore,
      edge: phase.edgeErrors,
    },
    trackerResends: phase.trackerResends,
    outageSeconds: Math.round(phase.outageSeconds * 10) / 10,
    recoverySeconds: Math.round(phase.recoverySeconds * 10) / 10,
    restarts: phase.restarts,
  };
}

/** How often each process has been started again so far (the stack counts them per crash streak). */
function restartCounts(stack: StackProcess): Record<string, number> {
  return Object.fromEntries(
    stack.state().processes.map((process) => [process.name, process.totalRestarts ?? 0]),
  );
}

/** Clients reading last positions through the edge, counting 5xx answers (and failed connections). */
class EdgeReader {
  serverErrors = 0;
  reads = 0;
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly edge: string,
    private readonly token: string,
    private readonly companyId: number,
    private readonly clients: number,
  ) {}

  start(): void {
    this.running = true;
    const pause = this.clients > 1 ? 100 : 500;
    this.loops = Array.from({ length: this.clients }, async () => {
      while (this.running) {
        const status = await fetch(`${this.edge}/v2/api/companies/${this.companyId}/vehicles/last-position`, {
          headers: { authorization: `Bearer ${this.token}` },
          signal: AbortSignal.timeout(10_000),
        }).then(
          async (response) => {
            await response.arrayBuffer();
            return response.status;
          },
          () => 599,
        );
        this.reads += 1;
        if (status >= 500) this.serverErrors += 1;
        await delay(pause);
      }
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

/** A company, its key, its vehicles (admin CLI); its overspeed rule and global webhook (through the edge). */
async function createTenant(databaseUrl: string, edge: string, count: number, webhookUrl: string) {
  const tenant = await adminTenant(databaseUrl, { name: 'Fault Freight', vehicles: count, imeiPrefix: '87' });
  const company = { id: tenant.companyId };
  const vehicles = tenant.vehicles;
  const token = await apiKeyToken(edge, tenant.apiKey);
  const post = (path: string, body: unknown) =>
    fetch(`${edge}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((response) => response.status);
  await waitFor(
    async () =>
      (await post(`/v2/api/companies/${company.id}/alerts`, {
        name: 'Over 100 km/h',
        alertTypeId: AlertTypes.overspeed.id,
        settings: { maxSpeedKmh: 100, minDurationSeconds: 0 },
      })) === 201,
    { timeoutMs: 60_000, intervalMs: 250, description: 'the alert configuration' },
  );
  await waitFor(async () => (await post('/v2/api/webhooks', { url: webhookUrl, isGlobal: true })) === 201, {
    timeoutMs: 60_000,
    intervalMs: 250,
    description: 'the webhook',
  });
  return { companyId: company.id, token, vehicles };
}
