import { Logger } from '@nestjs/common';

/**
 * A job a service runs at start (unless `runAtStart` is false) and then every `intervalMs` (retention
 * sweeps, expiry, polls, heartbeats): never two runs at once (a run still going when the next is due
 * is not doubled), a failed run logged and retried at the next interval, and `stop` waits for the run
 * in flight, so a stopping service does not close its database under it. The timer does not keep the
 * process alive. The services' one periodic timer: lint refuses `setInterval` in them.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private current?: Promise<void>;

  constructor(
    private readonly what: string,
    private readonly intervalMs: number,
    private readonly task: () => Promise<unknown>,
    private readonly logger: Logger,
    private readonly options: { runAtStart?: boolean } = {},
  ) {}

  start(): void {
    if (this.options.runAtStart !== false) this.run();
    this.timer = setInterval(() => this.run(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.current;
  }

  private run(): void {
    this.current ??= this.task()
      .then(() => undefined)
      .catch((error: unknown) => this.logger.error({ msg: `${this.what} failed; will retry`, err: error }))
      .finally(() => (this.current = undefined));
  }
}
