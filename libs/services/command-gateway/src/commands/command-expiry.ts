import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CommandsService } from './commands.service';

/** How often waiting commands are checked for expiry: a command reads `expired` at most this late. */
const EXPIRY_INTERVAL_MS = 1_000;
/** How often idempotency keys past their window are forgotten. */
const KEY_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The schedule of command-gateway, kept in its database: commands still waiting past `expires_at`
 * become `expired` (every second), idempotency keys past 24 hours are forgotten (hourly). Each is one
 * statement, so replicas running it at the same time do the work once between them.
 */
@Injectable()
export class CommandExpiry implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CommandExpiry.name);
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly commands: CommandsService) {}

  onApplicationBootstrap(): void {
    this.every(EXPIRY_INTERVAL_MS, 'expiring commands', () => this.commands.expireDue());
    this.every(KEY_PRUNE_INTERVAL_MS, 'pruning idempotency keys', () => this.commands.pruneIdempotencyKeys());
  }

  async onApplicationShutdown(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all(this.running);
  }

  /** Runs `task` now and every `intervalMs`, never twice at once. */
  private every(intervalMs: number, what: string, task: () => Promise<unknown>): void {
    let current: Promise<unknown> | undefined;
    const run = () => {
      if (current) return;
      current = task()
        .catch((error: unknown) => this.logger.error({ msg: `${what} failed; will retry`, err: error }))
        .finally(() => {
          this.running.delete(current!);
          current = undefined;
        });
      this.running.add(current);
    };
    run();
    const timer = setInterval(run, intervalMs);
    timer.unref();
    this.timers.push(timer);
  }
}
