/**
 * `npm run bench:idle`: what the distributed mode costs when nothing happens (issue 33, "idle costs
 * nothing"). Starts `npm run stack` without the demo tenant and without traffic (one company with
 * 20 vehicles, so that every service holds state, as a quiet night would find it), lets it settle, and
 * then measures, for `--seconds` (60), the CPU of each service process, of the Kafka broker and of the
 * PostgreSQL backends the stack holds, from /proc. Prints one JSON document on stdout; progress on
 * stderr. Target: each service ≤ 5 % of one core.
 *
 * Options: --seconds N (60), --settle N (30: seconds between ready and the measurement),
 * --port-offset N (23000).
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
// The harness is test code, not built into dist/: ts-node compiles it from source
// (scripts/runtime-aliases.cjs).
import { adminCli as admin, StackProcess } from '@fleet/testing';
import { CpuMeter, ProcessGroup } from '../common/cpu-meter';
import { createBenchDatabase } from '../common/infra';
import { otherBackendPids } from './idle.queries';

const log = (message: string) => process.stderr.write(`[idle] ${message}\n`);
const TARGET_PERCENT_PER_SERVICE = 5;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '60' },
      settle: { type: 'string', default: '30' },
      'port-offset': { type: 'string', default: '23000' },
    },
  });
  const benchDatabase = await createBenchDatabase();
  const databaseUrl = benchDatabase.url;
  const dataDir = mkdtempSync(join(tmpdir(), 'fleet-idle-'));

  log(`starting the stack (database ${new URL(databaseUrl).pathname.slice(1)})`);
  const stack = await StackProcess.start(
    ['--no-demo', '--port-offset', values['port-offset']!],
    { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    dataDir,
  );
  const database = new Client({ connectionString: databaseUrl });
  try {
    const company = await admin<{ id: number }>(databaseUrl, 'companies:create', '--name', 'Idle Freight');
    for (let index = 1; index <= 20; index += 1)
      await admin(
        databaseUrl,
        'vehicles:register',
        '--name',
        `Idle ${index}`,
        '--imei',
        `35000000000${String(index).padStart(4, '0')}`,
        '--company',
        String(company.id),
      );
    log(`settling for ${values.settle} s`);
    await delay(Number(values.settle) * 1000);

    await database.connect();
    const backendPids = await otherBackendPids(database);
    const services = stack.state().processes.filter((entry) => entry.pid !== undefined);
    const groups: Record<string, ProcessGroup> = Object.fromEntries(
      services.map((entry) => [entry.name, { pids: () => [entry.pid!] }]),
    );
    const kafkaPid = Number(readFileSync(join(dataDir, 'kafka', 'kafka.pid'), 'utf8').trim());
    groups.kafka = { pids: () => [kafkaPid] };
    groups['stack (supervisor)'] = { pids: () => [stack.state().pid] };
    groups['postgres (the stack’s backends)'] = { pids: () => backendPids };
    groups['postgres (every process of the machine’s server)'] = { command: 'postgres' };

    log(`measuring for ${values.seconds} s`);
    const stop = new CpuMeter(groups).start();
    await delay(Number(values.seconds) * 1000);
    const percentOfOneCore = stop();

    const perService = Object.fromEntries(
      services.map((entry) => [entry.name, percentOfOneCore[entry.name]]),
    );
    const result = {
      bench: 'idle',
      config: { seconds: Number(values.seconds), settleSeconds: Number(values.settle), vehicles: 20 },
      machine: { loadAverage: loadavg().map((value) => Math.round(value * 100) / 100) },
      cpuPercentOfOneCore: percentOfOneCore,
      postgresBackends: backendPids.length,
      target: `each service ≤ ${TARGET_PERCENT_PER_SERVICE} % of one core`,
      meetsTarget: Object.values(perService).every((value) => value <= TARGET_PERCENT_PER_SERVICE),
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await database.end().catch(() => undefined);
    await stack.interrupt().catch(() => stack.kill());
    rmSync(dataDir, { recursive: true, force: true });
    await benchDatabase.drop().catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
