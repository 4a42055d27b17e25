import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { ADMIN_URL_ENV, RUN_ID_ENV } from '../postgres';
import { repoRoot } from '../repo-root';
import { startTestEmbeddedPostgres } from './embedded-postgres';
import { resolveTestRedis, STARTED_REDIS } from './redis';

/**
 * Where the harness's own broker listens: 19092 (controller 19093), apart from a developer's broker on
 * 9092, or `KAFKA_PORT` (controller `KAFKA_CONTROLLER_PORT`, else the next port) so that two test runs
 * on one machine can each have their own. Each port has its own data directory.
 */
const testKafkaPort = Number(process.env.KAFKA_PORT ?? 19092);
export const TEST_KAFKA_ENV = {
  KAFKA_PORT: String(testKafkaPort),
  KAFKA_CONTROLLER_PORT: process.env.KAFKA_CONTROLLER_PORT ?? String(testKafkaPort + 1),
  KAFKA_DATA_DIR: join(
    repoRoot,
    testKafkaPort === 19092 ? '.data/kafka-test' : `.data/kafka-test-${testKafkaPort}`,
  ),
};
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const STARTED_KAFKA = 'TEST_HARNESS_STARTED_KAFKA';

async function reachable(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** DATABASE_URL if set, else the machine's PostgreSQL on 5432, else one from embedded-postgres. */
async function resolvePostgres(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  if (await reachable(LOCAL_POSTGRES)) return LOCAL_POSTGRES;
  return startTestEmbeddedPostgres();
}

function log(message: string): void {
  process.stderr.write(`[test setup] ${message}\n`);
}

export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  // End-to-end tests run the compiled apps as separate processes; build them from the current sources.
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: repoRoot, stdio: 'inherit' });
  // …and the web console the apps serve (the browser tests drive it).
  execFileSync(process.execPath, ['apps/console/build.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  // …and the production image's bundle (dist/image), which the migration Job's test runs.
  execFileSync(process.execPath, ['scripts/image/bundle.mjs'], { cwd: repoRoot, stdio: 'ignore' });

  process.env[RUN_ID_ENV] = randomBytes(3).toString('hex');
  process.env[ADMIN_URL_ENV] = await resolvePostgres();
  log(`PostgreSQL: ${new URL(process.env[ADMIN_URL_ENV]).host}`);

  const redis = await resolveTestRedis();
  process.env.REDIS_URL = redis.url;
  if (redis.started) process.env[STARTED_REDIS] = '1';
  log(`Redis: ${new URL(redis.url).host}${redis.started ? ' (started for this run)' : ''}`);

  if (!process.env.KAFKA_BROKERS) {
    const result = spawnSync('bash', [join(repoRoot, 'scripts/kafka.sh'), 'start'], {
      cwd: repoRoot,
      env: { ...process.env, ...TEST_KAFKA_ENV },
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    });
    const brokers = /KAFKA_BROKERS=(\S+)/.exec(result.stdout ?? '')?.[1];
    if (result.status !== 0 || !brokers) {
      throw new Error(
        `could not start the test Kafka broker (scripts/kafka.sh exit ${result.status}):\n${result.stdout}`,
      );
    }
    process.env.KAFKA_BROKERS = brokers;
    process.env[STARTED_KAFKA] = '1';
  }
  log(`Kafka: ${process.env.KAFKA_BROKERS}; ready in ${Math.round((Date.now() - started) / 100) / 10} s`);
}

export { STARTED_KAFKA };
