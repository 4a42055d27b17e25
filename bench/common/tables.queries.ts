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

/**
 * The rows of query.positions, counted cheaply enough to poll while a bench waits for the position
 * projection. `count(*)` of the whole table reads every row: at about 400,000 rows it took 109 ms a
 * call, and polled every 250 ms it was a third of PostgreSQL's statement time in a bench:trackers run
 * (pg_stat_statements, 2026-11-28), CPU taken from the very projection being measured.
 *
 * Each call counts only the rows that transactions finished since the last call added, through the
 * index on the inserting transaction (`accepted_xid`, positions_accepted_idx). The rows of every
 * transaction older than the statement's snapshot xmin are final (committed or gone), so counting the
 * xids in [previous xmin, this xmin) counts each row once and misses none; rows of transactions still
 * running are counted by a later call. A long transaction anywhere on the server holds the xmin back,
 * and the count with it, until it ends.
 */
export class PositionCounter {
  private rows = 0;
  /** Every position row of a transaction below this xid has been counted. */
  private countedBelow = '0';
  private last: Promise<number> = Promise.resolve(0);

  constructor(private readonly db: Queryable) {}

  /** Rows in query.positions now, as far as finished transactions tell. Calls run one at a time. */
  count(): Promise<number> {
    this.last = this.last.then(() => this.countNew());
    return this.last;
  }

  private async countNew(): Promise<number> {
    const { rows } = await this.db.query<{ horizon: string; n: string }>(
      `SELECT s.horizon,
              (SELECT count(*) FROM query.positions WHERE accepted_xid >= $1 AND accepted_xid < s.horizon) AS n
         FROM (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS horizon) s`,
      [this.countedBelow],
    );
    this.rows += Number(rows[0].n);
    this.countedBelow = rows[0].horizon;
    return this.rows;
  }
}
