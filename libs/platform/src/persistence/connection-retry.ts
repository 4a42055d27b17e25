import { DataSource } from 'typeorm';

const RETRY_INTERVAL_MS = 500;

/**
 * Whether `error` says PostgreSQL could not be reached (a refused or timed-out connection, an unknown
 * host name, a connection closed under it, a server starting or shutting down) rather than that a
 * statement failed: only the first kind may go away by trying again with a new connection.
 */
export function isConnectionFailure(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
    // SQLSTATE: class 08 (connection exception), 57P01-57P03 (shutting down, cannot connect now).
    return code.startsWith('08') || /^57P0[123]$/.test(code);
  }
  if (typeof code === 'string') return SOCKET_ERRORS.has(code);
  // node-postgres's own: "Connection terminated unexpectedly", "... due to connection timeout".
  return typeof message === 'string' && /^Connection terminated\b/.test(message);
}

/** Node's errors for a connection that could not be made or was lost, and for a name not resolved. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Runs `work`, and runs it again every half second while it fails because PostgreSQL cannot be
 * reached, until `waitMs` has passed; any other failure, or the last one, is thrown. `work` must be
 * safe to repeat (open a data source, run migrations that each run in their own transaction).
 */
export async function retryOnConnectionFailure<T>(work: () => Promise<T>, waitMs: number): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!isConnectionFailure(error) || Date.now() + RETRY_INTERVAL_MS > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_INTERVAL_MS));
    }
  }
}

/** `create()`'s data source, initialized; a new one is tried while PostgreSQL cannot be reached, up to `waitMs`. */
export function openDataSource(create: () => DataSource, waitMs: number): Promise<DataSource> {
  return retryOnConnectionFailure(() => create().initialize(), waitMs);
}
