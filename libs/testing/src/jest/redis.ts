import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { repoRoot } from '../repo-root';
import { waitFor } from '../wait-for';

export const LOCAL_REDIS_URL = 'redis://127.0.0.1:6379';
/** Where the harness's own Redis listens: apart from a developer's Redis on 6379. */
export const TEST_REDIS_PORT = 16379;
export const STARTED_REDIS = 'TEST_HARNESS_STARTED_REDIS';

/** Whether a Redis answers PING at `url`; never retries, so an absent server costs one timeout at most. */
export async function redisAnswers(url: string, timeoutMs = 2_000): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The failed connect() below reports the problem; without a listener ioredis would also log it.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export interface TestRedis {
  url: string;
  /** The harness started this server and must stop it (`stopTestRedis`). */
  started: boolean;
}

/**
 * REDIS_URL if set, else the machine's Redis on 6379, else a throwaway `redis-server` on
 * TEST_REDIS_PORT that keeps nothing on disk.
 */
export async function resolveTestRedis({
  probeUrl = LOCAL_REDIS_URL,
  port = TEST_REDIS_PORT,
  dataDir = join(repoRoot, '.data'),
} = {}): Promise<TestRedis> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, started: false };
  if (await redisAnswers(probeUrl)) return { url: probeUrl, started: false };

  const url = `redis://127.0.0.1:${port}`;
  // Left over from an interrupted run, or another run's: use it, but leave stopping it to its owner.
  if (await redisAnswers(url)) return { url, started: false };

  mkdirSync(dataDir, { recursive: true });
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  args.push('--daemonize', 'yes', '--pidfile', join(dataDir, 'redis-test.pid'), '--dir', dataDir);
  const result = spawnSync('redis-server', args, { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    const reason = result.error?.message ?? `exit ${result.status}: ${result.stdout}${result.stderr}`;
    throw new Error(
      `no Redis for the tests: REDIS_URL is unset, nothing answers at ${probeUrl}, and redis-server ` +
        `could not be started (${reason}). Install Redis or set REDIS_URL.`,
    );
  }
  // A daemonized server returns before it listens.
  await waitFor(() => redisAnswers(url, 500), {
    timeoutMs: 10_000,
    description: `redis-server on port ${port}`,
  });
  return { url, started: true };
}

export function stopTestRedis(port = TEST_REDIS_PORT): void {
  spawnSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave'], { stdio: 'inherit' });
}
