import { Logger, OnApplicationBootstrap, OnApplicationShutdown, Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

const HOUR_MS = 3_600_000;

/** A table partitioned by month of a time column (`PARTITION BY RANGE`), with a `<table>_default` partition. */
export interface MonthlyPartitionedTable {
  schema: string;
  /** The partitioned table; its partitions are named `<table>_yyyy_mm`. */
  table: string;
  /** The range key, for the row-by-row retention of the default partition. */
  timeColumn: string;
  /** Partitions wholly older than this are dropped. */
  retentionDays: number;
  /** Partitions are kept from last month to this many months ahead of the current one. */
  monthsAhead: number;
}

export interface PartitionChanges {
  created: string[];
  dropped: string[];
}

const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month, 1));

/**
 * Keeps the monthly partitions of a time-partitioned table ahead of time and drops the ones past
 * retention: whole-partition drops make retention free of row-by-row deletes. Shared by every owner
 * of such a table (query-api's position history, alert-engine's records), which provides it with
 * {@link monthlyPartitionsProvider}: maintained at start and every hour while the app runs. One
 * replica maintains a table at a time (an advisory lock named after the table), the others skip that
 * round.
 */
export class MonthlyPartitions implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger: Logger;
  private readonly qualified: string;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly spec: MonthlyPartitionedTable,
  ) {
    this.logger = new Logger(`Partitions:${spec.schema}.${spec.table}`);
    this.qualified = `"${spec.schema}"."${spec.table}"`;
  }

  /** Maintains now, then every hour until {@link stop}; a failed later round is logged and retried. */
  async start(): Promise<void> {
    await this.maintain();
    this.timer = setInterval(() => {
      this.maintain().catch((error: unknown) =>
        this.logger.error({ msg: 'partition maintenance failed', err: error }),
      );
    }, HOUR_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  onApplicationShutdown(): void {
    this.stop();
  }

  /** Creates partitions from last month to `monthsAhead` months ahead; drops those wholly older than retention. */
  async maintain(now = new Date()): Promise<PartitionChanges> {
    const { schema, table, timeColumn, retentionDays, monthsAhead } = this.spec;
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`, [
        `fleet-partitions:${schema}.${table}`,
      ]);
      if (!locked) return { created: [], dropped: [] };
      const created: string[] = [];
      for (let offset = -1; offset <= monthsAhead; offset++) {
        const start = monthStart(now.getUTCFullYear(), now.getUTCMonth() + offset);
        const end = monthStart(start.getUTCFullYear(), start.getUTCMonth() + 1);
        const name = `${table}_${start.getUTCFullYear()}_${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
        const [{ exists }] = await manager.query(`SELECT to_regclass($1) IS NOT NULL AS exists`, [
          `"${schema}"."${name}"`,
        ]);
        if (exists) continue;
        await manager.query(
          `CREATE TABLE "${schema}"."${name}" PARTITION OF ${this.qualified}
             FOR VALUES FROM ('${start.toISOString()}') TO ('${end.toISOString()}')`,
        );
        created.push(name);
      }
      const cutoff = new Date(now.getTime() - retentionDays * 24 * HOUR_MS);
      const partitions: { name: string; bound: string }[] = await manager.query(
        `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = $1::regclass`,
        [this.qualified],
      );
      const dropped: string[] = [];
      for (const partition of partitions) {
        const upper = /TO \('([^']+)'\)/.exec(partition.bound)?.[1];
        if (!upper || new Date(upper) > cutoff) continue;
        await manager.query(`DROP TABLE "${schema}"."${partition.name}"`);
        dropped.push(partition.name);
      }
      // The default partition holds only rows outside every month above; retention applies to it row by row.
      await manager.query(`DELETE FROM "${schema}"."${table}_default" WHERE "${timeColumn}" < $1`, [cutoff]);
      if (created.length || dropped.length)
        this.logger.log({ msg: 'partitions maintained', created, dropped });
      return { created, dropped };
    });
  }
}

/**
 * The Nest provider of a service's partitioned table in `schema` (its data source is the schema's):
 * `describe` reads the rest of the table's description from the service's config, injected with
 * `configToken`. Provided under `provide`, so that a test can reach it (`app.get`).
 */
export function monthlyPartitionsProvider<C>(
  provide: string | symbol,
  schema: string,
  configToken: string | symbol,
  describe: (config: C) => Omit<MonthlyPartitionedTable, 'schema'>,
): Provider {
  return {
    provide,
    inject: [configToken, getDataSourceToken(schema)],
    useFactory: (config: C, dataSource: DataSource) =>
      new MonthlyPartitions(dataSource, { schema, ...describe(config) }),
  };
}
