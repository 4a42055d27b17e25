import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import { QUERY_SCHEMA } from '../query-api.schema.constants';

const HOUR_MS = 3_600_000;
/** Any number, as long as every query-api replica uses the same one: one replica maintains at a time. */
const MAINTENANCE_LOCK = 0x706f7331; // "pos1"

const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month, 1));
const partitionName = (start: Date) =>
  `positions_${start.getUTCFullYear()}_${String(start.getUTCMonth() + 1).padStart(2, '0')}`;

/**
 * Keeps the monthly partitions of position history ahead of time and drops the ones past retention.
 * Runs at start and every hour; whole-partition drops make retention free of row-by-row deletes.
 */
@Injectable()
export class PositionPartitions implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PositionPartitions.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource,
    @Inject(QUERY_API_CONFIG) private readonly config: QueryApiConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.maintain();
    this.timer = setInterval(() => {
      this.maintain().catch((error: unknown) =>
        this.logger.error({ msg: 'partition maintenance failed', err: error }),
      );
    }, HOUR_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Creates partitions from last month to `monthsAhead` months ahead; drops those wholly older than retention. */
  async maintain(now = new Date()): Promise<{ created: string[]; dropped: string[] }> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [
        MAINTENANCE_LOCK,
      ]);
      if (!locked) return { created: [], dropped: [] };
      const created: string[] = [];
      for (let offset = -1; offset <= this.config.positions.partitionMonthsAhead; offset++) {
        const start = monthStart(now.getUTCFullYear(), now.getUTCMonth() + offset);
        const end = monthStart(start.getUTCFullYear(), start.getUTCMonth() + 1);
        const name = partitionName(start);
        const [{ exists }] = await manager.query(`SELECT to_regclass($1) IS NOT NULL AS exists`, [
          `${QUERY_SCHEMA}.${name}`,
        ]);
        if (exists) continue;
        await manager.query(
          `CREATE TABLE "${QUERY_SCHEMA}"."${name}" PARTITION OF "${QUERY_SCHEMA}"."positions"
             FOR VALUES FROM ('${start.toISOString()}') TO ('${end.toISOString()}')`,
        );
        created.push(name);
      }
      const cutoff = new Date(now.getTime() - this.config.positions.retentionDays * 24 * HOUR_MS);
      const partitions: { name: string; bound: string }[] = await manager.query(
        `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = '"${QUERY_SCHEMA}"."positions"'::regclass`,
      );
      const dropped: string[] = [];
      for (const partition of partitions) {
        const upper = /TO \('([^']+)'\)/.exec(partition.bound)?.[1];
        if (!upper || new Date(upper) > cutoff) continue;
        await manager.query(`DROP TABLE "${QUERY_SCHEMA}"."${partition.name}"`);
        dropped.push(partition.name);
      }
      // The default partition holds only fixes outside every month above; retention applies to it row by row.
      await manager.query(`DELETE FROM "${QUERY_SCHEMA}"."positions_default" WHERE fix_time < $1`, [cutoff]);
      if (created.length || dropped.length)
        this.logger.log({ msg: 'position partitions maintained', created, dropped });
      return { created, dropped };
    });
  }
}
