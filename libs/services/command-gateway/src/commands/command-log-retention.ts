import { HOUR_MS } from '@fleet/contracts';
import { PeriodicTask } from '@fleet/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { COMMAND_GATEWAY_CONFIG, CommandGatewayConfig } from '../command-gateway.config';
import { COMMANDS_SCHEMA } from '../command-gateway.schema.constants';
import { CommandQueries } from './commands.queries';

/**
 * Deletes commands that finished (acknowledged, failed, superseded, cancelled, expired) more than
 * COMMANDS_RETENTION_DAYS ago: at start and every hour, in batches. Commands still waiting are never
 * deleted. Replicas may run it at the same time; they delete disjoint or already-deleted rows.
 */
@Injectable()
export class CommandLogRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly sweep: PeriodicTask;
  private readonly queries: CommandQueries;

  constructor(
    @InjectDataSource(COMMANDS_SCHEMA) dataSource: DataSource,
    @Inject(COMMAND_GATEWAY_CONFIG) private readonly config: CommandGatewayConfig,
  ) {
    this.queries = new CommandQueries(dataSource);
    this.sweep = new PeriodicTask(
      'pruning the command log',
      HOUR_MS,
      () => this.prune(),
      new Logger(CommandLogRetention.name),
    );
  }

  onApplicationBootstrap(): void {
    this.sweep.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweep.stop();
  }

  /** Deletes what is past retention; how many commands went. */
  prune(): Promise<number> {
    return this.queries.pruneFinished(this.config.retentionDays);
  }
}
