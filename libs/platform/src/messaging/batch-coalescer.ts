interface Waiting<T> {
  items: readonly T[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Merges concurrent calls into one run of `work`: what callers submit during one turn of the event
 * loop, and while a run is in progress, goes into the next run together, up to `maxItems`. Each caller
 * resolves once a run that held its items succeeded.
 *
 * Consumers use it to project the batches of several partitions in one database transaction: Kafka
 * hands a consumer one batch per partition, and many small transactions cost far more than one large
 * one. A merged run that fails is retried caller by caller, so that one caller's bad items fail only
 * that caller (whose delivery then retries and dead-letters as usual), never its neighbours.
 */
export class BatchCoalescer<T> {
  private queue: Waiting<T>[] = [];
  private running = false;

  constructor(
    private readonly work: (items: readonly T[]) => Promise<void>,
    private readonly maxItems: number,
  ) {}

  submit(items: readonly T[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ items, resolve, reject });
      if (this.running) return;
      this.running = true;
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const group = this.take();
      if (group.length === 1) {
        await this.runAlone(group[0]);
        continue;
      }
      try {
        await this.work(group.flatMap((waiting) => waiting.items));
        for (const waiting of group) waiting.resolve();
      } catch {
        for (const waiting of group) await this.runAlone(waiting);
      }
    }
    this.running = false;
  }

  /** The queued callers whose items fit in one run (always at least one). */
  private take(): Waiting<T>[] {
    let count = 0;
    let taken = 0;
    while (
      taken < this.queue.length &&
      (taken === 0 || count + this.queue[taken].items.length <= this.maxItems)
    ) {
      count += this.queue[taken].items.length;
      taken++;
    }
    return this.queue.splice(0, taken);
  }

  private async runAlone(waiting: Waiting<T>): Promise<void> {
    try {
      await this.work(waiting.items);
      waiting.resolve();
    } catch (error) {
      waiting.reject(error);
    }
  }
}
