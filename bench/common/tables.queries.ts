/**
 * Row counts the benches wait on and report: a projection that has learnt every vehicle, the
 * positions stored so far. The table is one of a fixed list, never text from outside.
 */
import type { ClientBase } from 'pg';

/** A pool, a client or a client holding a transaction: what a bench's statement runs on. */
export type Queryable = Pick<ClientBase, 'query'>;

/** The tables whose rows a bench counts. */
export type CountedTable =
  | 'alerts.vehicles'
  | 'alerts.records'
  | 'ingest.device_sessions'
  | 'commands.vehicles'
  | 'query.positions'
  | 'query.last_positions';

/** The number of rows of `table`. */
export async function countRows(db: Queryable, table: CountedTable): Promise<number> {
  return Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
}
