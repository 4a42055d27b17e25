import { DataSource } from 'typeorm';
import { isTransientError } from '../messaging/delivery';
import { retryWhile } from '../runtime/retry-while';

/**
 * Runs `work`, and runs it again every half second while it fails because PostgreSQL cannot be
 * reached (the consumers' `isTransientError`), until `waitMs` has passed; any other failure, or the
 * last one, is thrown. `work` must be safe to repeat (open a data source, run migrations that each
 * run in their own transaction).
 */
export function retryOnConnectionFailure<T>(work: () => Promise<T>, waitMs: number): Promise<T> {
  return retryWhile(work, isTransientError, waitMs);
}

/** `create()`'s data source, initialized; a new one is tried while PostgreSQL cannot be reached, up to `waitMs`. */
export function openDataSource(create: () => DataSource, waitMs: number): Promise<DataSource> {
  return retryOnConnectionFailure(() => create().initialize(), waitMs);
}
