import { connect } from 'node:net';
import { Client } from 'pg';
import { redactUrl } from '../config/env-reader';
import { ping } from '../persistence/catalog.queries';
import { ServiceConfig } from '../config/service-config';
import { ExitCodes, StartupError } from './exit-codes';
import { retryWhile } from './retry-while';

/** PostgreSQL error codes that no amount of waiting fixes: a wrong password or database name. */
const POSTGRES_CONFIG_ERRORS: Record<string, string> = {
  '28P01': 'the password was refused',
  '28000': 'the role may not log in',
  '3D000': 'the database does not exist',
};

/** A StartupError (a wrong password, a missing database) ends the waiting at once. */
const notStartupError = (error: unknown) => !(error instanceof StartupError);

function reasonOf(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return code && !/^\d/.test(code) ? code : (message ?? String(error));
}

/** `host:port` of a PostgreSQL URL, without its user and password. */
export function databaseHostOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}`;
  } catch {
    return redactUrl(url);
  }
}

async function checkPostgres(url: string, timeoutMs: number): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: Math.min(timeoutMs, 5_000) });
  // A refused connection also emits 'error'; the rejected connect() below reports it.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await ping(client);
  } catch (error) {
    const refused = POSTGRES_CONFIG_ERRORS[(error as { code?: string }).code ?? ''];
    if (refused) {
      throw new StartupError(ExitCodes.config, `DATABASE_URL: ${refused} (${databaseHostOf(url)})`, {
        setting: 'DATABASE_URL',
        host: databaseHostOf(url),
      });
    }
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Opens and closes a TCP connection to `host:port`. */
function checkTcp(address: string, timeoutMs: number): Promise<void> {
  const separator = address.lastIndexOf(':');
  const host = address.slice(0, separator).replace(/^\[|\]$/g, '');
  const port = Number(address.slice(separator + 1));
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    });
    socket.once('error', reject);
  });
}

/** Resolves when at least one of the brokers accepts a connection. */
async function checkAnyBroker(brokers: readonly string[], timeoutMs: number): Promise<void> {
  const failures = await Promise.allSettled(brokers.map((broker) => checkTcp(broker, timeoutMs)));
  if (failures.some((result) => result.status === 'fulfilled')) return;
  const reasons = failures.map((result, index) =>
    result.status === 'rejected' ? `${brokers[index]}: ${reasonOf(result.reason)}` : '',
  );
  throw new Error(reasons.join(', '));
}

/**
 * Waits up to `waitMs` for PostgreSQL at `url` to answer a query, trying again every half second with
 * a new connection (and so a new name lookup: one that a container network lost is not waited out).
 * A refused password or a missing database ends the wait at once; both throw a StartupError.
 */
export async function waitForPostgres(url: string, waitMs: number): Promise<void> {
  const host = databaseHostOf(url);
  await retryWhile(() => checkPostgres(url, waitMs), notStartupError, waitMs).catch((error: unknown) => {
    if (error instanceof StartupError) throw error;
    throw new StartupError(
      ExitCodes.unavailable,
      `PostgreSQL at ${host} (DATABASE_URL) is unreachable after ${Math.round(waitMs / 1000)} s: ${reasonOf(error)}`,
      { setting: 'DATABASE_URL', host },
    );
  });
}

/**
 * Before the app is built: waits up to `waitMs` for PostgreSQL and the Kafka brokers to answer, so
 * that a dependency that is down ends the start with exit 69 naming its setting, instead of the
 * minute of client retries (and no /health/live) it took before. Only reachability is checked here;
 * the modules connect for real afterwards.
 */
export async function checkDependencies(config: ServiceConfig, waitMs: number): Promise<void> {
  await waitForPostgres(config.database.url, waitMs);
  if (config.messaging.transport !== 'kafka') return;
  const { brokers } = config.messaging.kafka;
  await retryWhile(() => checkAnyBroker(brokers, 2_000), notStartupError, waitMs).catch((error: unknown) => {
    throw new StartupError(
      ExitCodes.unavailable,
      `no Kafka broker of KAFKA_BROKERS=${brokers.join(',')} is reachable after ${Math.round(waitMs / 1000)} s: ${reasonOf(error)}`,
      { setting: 'KAFKA_BROKERS', brokers },
    );
  });
}
