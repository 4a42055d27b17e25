import { encodeEvent, TopicSpec, topicByName } from '@fleet/contracts';
import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource, EntityManager, QueryRunner, TransactionCommitEvent } from 'typeorm';
import { EventPublisher, OutgoingEvent } from '../../messaging/message';
import { traceHeadersOf } from '../../tracing/trace-context';
import { PgChannelListener } from '../pg-channel-listener';
import { OutboxQueries } from './outbox.queries';

export interface OutboxOptions {
  /** Rows published per transaction. */
  batchSize?: number;
  /**
   * The relay LISTENs on the outbox's channel with a connection of its own: every enqueue notifies it
   * when its transaction commits, in this process or another (a replica, the admin CLI).
   */
  notifications?: { connectionString: string };
  /**
   * How often the relay looks without being woken: 250 ms by default, 5 s with notifications (then
   * only for a notification lost while the listening connection was down).
   */
  pollIntervalMs?: number;
}

/** The NOTIFY channel of a schema's outbox. */
export const outboxChannel = (schema: string) => `fleet_outbox_${schema}`;

class RelayElsewhere extends EventPublisher {
  constructor(private readonly schema: string) {
    super();
  }

  async publish(): Promise<void> {
    throw new Error(`this process only writes to the ${this.schema} outbox; the running service relays it`);
  }
}

/**
 * Publishes facts that must not be lost with the transaction that stores them: `enqueue` writes the
 * events into the service's `outbox` table through the caller's transaction, and the relay publishes
 * committed rows in order, then deletes them. A crash between publish and delete republishes (at
 * least once; consumers are idempotent). One relay per schema works at a time (advisory lock), so
 * replicas cannot reorder one key's events.
 */
export class Outbox implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger: Logger;
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  /** Set by `wake`; a wake that comes while a drain runs makes the relay look again instead of sleeping. */
  private wakeRequested = false;
  /** Transactions that enqueued rows and have not committed yet: their commit wakes the relay. */
  private readonly uncommitted = new WeakSet<QueryRunner>();
  private readonly listener?: PgChannelListener;
  private readonly queries: OutboxQueries;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly publisher: EventPublisher,
    options: OutboxOptions = {},
  ) {
    this.logger = new Logger(`Outbox:${schema}`);
    this.queries = new OutboxQueries(schema);
    this.batchSize = options.batchSize ?? 500;
    this.pollIntervalMs = options.pollIntervalMs ?? (options.notifications ? 5_000 : 250);
    if (options.notifications)
      this.listener = new PgChannelListener({
        connectionString: options.notifications.connectionString,
        channel: outboxChannel(schema),
        applicationName: `outbox-${schema}`,
        onNotify: () => this.wake(),
        // Rows committed while the connection was down notified nobody.
        onListening: () => this.wake(),
      });
    // Waking the relay when enqueue runs would look before the rows are committed (they are invisible
    // then) and leave them to the next poll; TypeORM's commit event is the moment they become visible.
    dataSource.subscribers.push({
      afterTransactionCommit: (event: TransactionCommitEvent) => {
        if (!event.queryRunner.isTransactionActive && this.uncommitted.has(event.queryRunner)) {
          this.uncommitted.delete(event.queryRunner);
          this.wake();
        }
      },
    });
  }

  /**
   * An outbox that only writes, for processes that change data but do not run the relay (the admin
   * CLI): the running service relays what they enqueue.
   */
  static writeOnly(dataSource: DataSource, schema: string): Outbox {
    return new Outbox(dataSource, schema, new RelayElsewhere(schema));
  }

  /**
   * Validates the events now (a bad payload fails the caller's transaction) and stores them with it.
   * With tracing on, each row keeps the `traceparent` of the work that wrote it (unless the event
   * names its own) in its headers: the relay publishes the event in that trace (docs/tracing.md).
   */
  async enqueue<T extends object>(
    manager: EntityManager,
    topic: TopicSpec<T>,
    events: readonly OutgoingEvent<T>[],
  ): Promise<void> {
    if (events.length === 0) return;
    const trace = traceHeadersOf();
    // The notification is sent when (and only if) the transaction commits, to every relay listening.
    await this.queries.insert(manager, {
      topic: topic.name,
      keys: events.map((event) => event.key),
      payloads: events.map((event) => encodeEvent(topic, event.payload)),
      headers: events.map((event) => JSON.stringify({ ...trace, ...event.headers })),
      channel: outboxChannel(this.schema),
    });
    // Publish as soon as the caller commits; a rollback leaves nothing to publish.
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) this.uncommitted.add(runner);
    else this.wake();
  }

  /** Publishes everything committed so far; resolves when the outbox is empty (or another relay holds it). */
  async drain(): Promise<void> {
    while ((await this.publishBatch()) === this.batchSize) {
      // a full batch: there may be more
    }
  }

  /**
   * Rows not yet relayed and the age of the oldest, for the metrics (read on scrape). Counted by the
   * database's clock, as `created_at` is; a count of a large backlog scans it, which is what an
   * operator wants to see then (an empty outbox is the normal state).
   */
  async backlog(): Promise<{ rows: number; oldestAgeSeconds: number }> {
    const { rows, age } = await this.queries.backlog(this.dataSource);
    return { rows, oldestAgeSeconds: Math.max(0, age ?? 0) };
  }

  async onApplicationBootstrap(): Promise<void> {
    this.running = true;
    this.loop = this.run();
    await this.listener?.start();
  }

  /**
   * Stops the relay loop, then relays once more what was committed up to now (the last requests and
   * batches of a graceful stop), so that a stopping service leaves nothing for the next start.
   */
  async onApplicationShutdown(): Promise<void> {
    const wasRunning = this.running;
    this.running = false;
    await this.listener?.stop();
    this.wake();
    await this.loop;
    if (!wasRunning) return;
    await this.drain().catch((error: unknown) =>
      this.logger.warn({ msg: 'last relay at shutdown failed; the next start relays the rest', err: error }),
    );
  }

  wake(): void {
    this.wakeRequested = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    let backoffMs = this.pollIntervalMs;
    while (this.running) {
      this.wakeRequested = false;
      try {
        await this.drain();
        backoffMs = this.pollIntervalMs;
      } catch (error) {
        this.logger.error({ msg: 'publishing from the outbox failed; will retry', err: error });
        backoffMs = Math.min(backoffMs * 2, 10_000);
      }
      if (!this.running) break;
      if (this.wakeRequested && backoffMs === this.pollIntervalMs) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoffMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  private async publishBatch(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.queries.lockRelay(manager))) return 0;
      const rows = await this.queries.oldest(manager, this.batchSize);
      // Consecutive rows of one topic go out in one send, in id order.
      for (let start = 0; start < rows.length;) {
        let end = start;
        while (end < rows.length && rows[end].topic === rows[start].topic) end++;
        const slice = rows.slice(start, end);
        await this.publisher.publish(
          topicByName(rows[start].topic),
          slice.map((row) => ({ key: row.key, payload: row.payload, headers: row.headers })),
        );
        start = end;
      }
      if (rows.length > 0) {
        await this.queries.delete(
          manager,
          rows.map((row) => row.id),
        );
      }
      return rows.length;
    });
  }
}
