import { HOUR_MS } from '@fleet/contracts';
import { Logger, OnApplicationBootstrap, OnApplicationShutdown, Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { relationExists, tryAdvisoryTransactionLock } from './catalog.queries';
import { partitionQueries } from './partitions.queries';

/**
 * How much time one partition holds: a month (`<table>_yyyy_mm`: position history, alert records) or a
 * day (`<table>_yyyy_mm_dd`: data kept for days, such as telemetry-ingest's raw frames, where a monthly
 * partition would keep up to a month past retention before it could be dropped whole).
 */
export type PartitionUnit = 'month' | 'day';

/** A table partitioned by range of a time column (`PARTITION BY RANGE`), with a `<table>_default` partition. */
export interface TimePartitionedTable {
  schema: string;
  /** The partitioned table; its partitions are named `<table>_yyyy_mm` (months) or `<table>_yyyy_mm_dd` (days). */
  table: string;
  /** The range key, for the row-by-row retention of the default partition. */
  timeColumn: string;
  /** Partitions wholly older than this are dropped. */
  retentionDays: number;
  unit: PartitionUnit;
  /** Partitions are kept from the previous unit to this many units ahead of the current one. */
  ahead: number;
}

/** A table partitioned by month of a time column (the shape query-api and alert-engine describe). */
export interface MonthlyPartitionedTable extends Omit<TimePartitionedTable, 'unit' | 'ahead'> {
  /** Partitions are kept from last month to this many months ahead of the current one. */
  monthsAhead: number;
}

export interface PartitionChanges {
  created: string[];
  dropped: string[];
}

const two = (n: number) => String(n).padStart(2, '0');

/** The start of the unit `offset` units after the one holding `now` (UTC), and the partition's name suffix. */
function unitStart(unit: PartitionUnit, now: Date, offset: number): Date {
  return unit === 'month'
    ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1))
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset));
}

function suffix(unit: PartitionUnit, start: Date): string {
  const month = `${start.getUTCFullYear()}_${two(start.getUTCMonth() + 1)}`;
  return unit === 'month' ? month : `${month}_${two(start.getUTCDate())}`;
}

/**
 * Keeps the partitions of a time-partitioned table ahead of time and drops the ones past retention:
 * whole-partition drops make retention free of row-by-row deletes. Shared by every owner of such a
 * table (query-api's position history and alert-engine's records by month, telemetry-ingest's raw
 * frames by day), which provides it with {@link monthlyPartitionsProvider} or
 * {@link timePartitionsProvider}: maintained at start and every hour while the app runs; shutdown waits
 * for a round in flight. One replica maintains a table at a time (an advisory lock named after the
 * table), the others skip that round.
 */
export class TimePartitions implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger: Logger;
  private readonly qualified: string;
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly spec: TimePartitionedTable,
  ) {
    this.logger = new Logger(`Partitions:${spec.schema}.${spec.table}`);
    this.qualified = `"${spec.schema}"."${spec.table}"`;
  }

  /** Maintains now, then every hour until {@link stop}; a failed later round is logged and retried. */
  async start(): Promise<void> {
    await this.round();
    this.timer = setInterval(() => {
      if (this.running) return;
      this.round().catch((error: unknown) =>
        this.logger.error({ msg: 'partition maintenance failed', err: error }),
      );
    }, HOUR_MS);
    this.timer.unref();
  }

  /** No more rounds; resolves once the one in flight, if any, is over. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  private round(): Promise<PartitionChanges> {
    const round = this.maintain();
    this.running = round;
    return round.finally(() => {
      if (this.running === round) this.running = undefined;
    });
  }

  /** Creates partitions from the previous unit to `ahead` units ahead; drops those wholly older than retention. */
  async maintain(now = new Date()): Promise<PartitionChanges> {
    const { schema, table, timeColumn, retentionDays, unit, ahead } = this.spec;
    return this.dataSource.transaction(async (manager) => {
      if (!(await tryAdvisoryTransactionLock(manager, `fleet-partitions:${schema}.${table}`))) {
        return { created: [], dropped: [] };
      }
      const created: string[] = [];
      for (let offset = -1; offset <= ahead; offset++) {
        const start = unitStart(unit, now, offset);
        const name = `${table}_${suffix(unit, start)}`;
        if (await relationExists(manager, `"${schema}"."${name}"`)) continue;
        await partitionQueries.create(
          manager,
          schema,
          name,
          this.qualified,
          start,
          unitStart(unit, now, offset + 1),
        );
        created.push(name);
      }
      const cutoff = new Date(now.getTime() - retentionDays * 24 * HOUR_MS);
      const dropped: string[] = [];
      for (const partition of await partitionQueries.list(manager, this.qualified)) {
        const upper = /TO \('([^']+)'\)/.exec(partition.bound)?.[1];
        if (!upper || new Date(upper) > cutoff) continue;
        await partitionQueries.drop(manager, schema, partition.name);
        dropped.push(partition.name);
      }
      // The default partition holds only rows outside every partition above; retention applies to it row by row.
      await partitionQueries.pruneDefault(manager, schema, table, timeColumn, cutoff);
      if (created.length || dropped.length)
        this.logger.log({ msg: 'partitions maintained', created, dropped });
      return { created, dropped };
    });
  }
}

/** {@link TimePartitions} by month, described as query-api and alert-engine describe their tables. */
export class MonthlyPartitions extends TimePartitions {
  constructor(dataSource: DataSource, { monthsAhead, ...spec }: MonthlyPartitionedTable) {
    super(dataSource, { ...spec, unit: 'month', ahead: monthsAhead });
  }
}

/**
 * The Nest provider of a service's partitioned table in `schema` (its data source is the schema's):
 * `describe` reads the rest of the table's description from the service's config, injected with
 * `configToken`. Provided under `provide`, so that a test can reach it (`app.get`).
 */
export function timePartitionsProvider<C>(
  provide: string | symbol,
  schema: string,
  configToken: string | symbol,
  describe: (config: C) => Omit<TimePartitionedTable, 'schema'>,
): Provider {
  return {
    provide,
    inject: [configToken, getDataSourceToken(schema)],
    useFactory: (config: C, dataSource: DataSource) =>
      new TimePartitions(dataSource, { schema, ...describe(config) }),
  };
}

/** {@link timePartitionsProvider} of a table partitioned by month. */
export function monthlyPartitionsProvider<C>(
  provide: string | symbol,
  schema: string,
  configToken: string | symbol,
  describe: (config: C) => Omit<MonthlyPartitionedTable, 'schema'>,
): Provider {
  return timePartitionsProvider<C>(provide, schema, configToken, (config) => {
    const { monthsAhead, ...table } = describe(config);
    return { ...table, unit: 'month', ahead: monthsAhead };
  });
}
