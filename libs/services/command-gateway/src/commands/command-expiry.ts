import { HOUR_MS } from '@fleet/contracts';
import { PeriodicTask } from '@fleet/platform';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CommandsService } from './commands.service';

/** How often waiting commands are checked for expiry: a command reads `expired` at most this late. */
const EXPIRY_INTERVAL_MS = 1_000;

/**
 * The schedule of command-gateway, kept in its database: commands still waiting past `expires_at`
 * become `expired` (every second), idempotency keys past 24 hours are forgotten (hourly). Each is one
 * statement, so replicas running it at the same time do the work once between them. The command log's
 * retention: CommandLogRetention.
 */
@Injectable()
export class CommandExpiry implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly tasks: PeriodicTask[];

  constructor(commands: CommandsService) {
    const logger = new Logger(CommandExpiry.name);
    this.tasks = [
      new PeriodicTask('expiring commands', EXPIRY_INTERVAL_MS, () => commands.expireDue(), logger),
      new PeriodicTask('pruning idempotency keys', HOUR_MS, () => commands.pruneIdempotencyKeys(), logger),
    ];
  }

  onApplicationBootstrap(): void {
    for (const task of this.tasks) task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.tasks.map((task) => task.stop()));
  }
}
