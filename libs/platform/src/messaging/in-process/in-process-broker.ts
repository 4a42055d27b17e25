import { MessageHeaders, RawBatch, RawMessage } from '../message';
import { BrokerStore, DeleteRange, StoredMessage, StoredRecord, StoredState } from './broker-store';
import { GroupPositions } from './group-positions';
import { PartitionLog, partitionFor, TopicLog } from './partition-log';

export { partitionFor };

export type BatchHandler = (batch: RawBatch) => Promise<void>;

interface Member {
  handler: BatchHandler;
  maxBatchSize: number;
  partitions: Set<number>;
}

/** A consumer group's view of one topic: its positions and the members sharing its partitions. */
interface GroupSubscription {
  /** Next offset to deliver, per partition: advances once the handler resolved. */
  offsets: number[];
  members: Member[];
  pumping: Set<number>;
  /** Positions are not kept in the store: the group starts afresh in every process (perProcess). */
  ephemeral: boolean;
}

export interface SubscribeOptions {
  /** Where a group with no committed position starts: the oldest retained message, or only new ones. */
  fromBeginning?: boolean;
  maxBatchSize?: number;
  /**
   * The group's position is not kept: every start begins per `fromBeginning` (in-memory projections
   * that each process rebuilds from the topic). Such a group does not hold back deleting from the store.
   */
  ephemeral?: boolean;
}

export interface InProcessBrokerOptions {
  /** Pause before a partition is retried after its handler failed to commit a batch. */
  redeliveryDelayMs?: number;
  /** Records kept on a topic that no group reads (dead-letter topics), for inspection. */
  unreadRetention?: number;
  /** With a store: the newest records kept in memory per partition, so delivery rarely reads the store. */
  tailLimit?: number;
  /** With a store: how long a group's new position may wait before it is written (default 100 ms). */
  positionCommitIntervalMs?: number;
  /** With a store: how often consumed and superseded messages are deleted from it. */
  maintenanceIntervalMs?: number;
  /** With a store: messages appended to a compacted topic before the store compacts it again. */
  compactionThreshold?: number;
  onError?: (
    error: unknown,
    context: { topic?: string; group?: string; partition?: number; during: string },
  ) => void;
}

interface PendingAppend {
  topic: string;
  records: (StoredRecord & { partition: number })[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Appends stored together, in one statement: visible, and their callers answered, in dispatch order. */
interface Write {
  appends: PendingAppend[];
  messages: StoredMessage[];
  outcome?: { ok: true } | { ok: false; error: unknown };
}

/** Rows per INSERT of the writer; a larger queue goes in several, in order. */
const MAX_ROWS_PER_WRITE = 5_000;
/**
 * Writes in flight at once. One write at a time made throughput the rows of a write divided by the
 * latency of a commit (single reports: ~2,500/s on the bench machine); two overlap one write's
 * commit with the next one's (docs/performance.md).
 */
const MAX_WRITES_IN_FLIGHT = 2;
/** Rows deleted per partition per maintenance pass, so a large backlog is deleted in steps. */
const MAX_DELETE_PER_PARTITION = 50_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The embedded mode's stand-in for Kafka, with the semantics services rely on: per-key ordering
 * (a key always maps to one partition, consumed by one member at a time), consumer groups (each group
 * gets every message, its members share partitions), at-least-once delivery (an offset advances only
 * after the handler resolved; a rejected batch is redelivered).
 *
 * With a {@link BrokerStore} (`InProcessBroker.open`, what the embedded app and the tests' apps run) the
 * log and the groups' positions live in PostgreSQL: `append` resolves once the messages are committed
 * there, consumers see a message only after that, and a restarted process resumes every group from
 * its committed position. Without one (`new InProcessBroker()`, for unit tests) everything is in
 * memory and lost with the process. docs/architecture.md explains the choices.
 *
 * Its parts: a partition's offsets and in-memory tail are a PartitionLog (partition-log.ts), the groups'
 * committed positions GroupPositions (group-positions.ts); this class writes appends, runs groups and
 * their delivery, and maintains the store.
 */
export class InProcessBroker {
  private readonly topics = new Map<string, TopicLog>();
  private readonly groups = new Map<string, Map<string, GroupSubscription>>();
  /** The groups' positions in the store: written every `positionCommitIntervalMs`, respected by deletes. */
  private readonly positions: GroupPositions;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly redeliveryDelayMs: number;
  private readonly unreadRetention: number;
  private readonly tailLimit: number;
  private readonly compactionThreshold: number;
  private readonly store?: BrokerStore;
  private readonly stored?: StoredState;
  private pendingAppends: PendingAppend[] = [];
  private writes: Write[] = [];
  private maintenanceTimer?: NodeJS.Timeout;
  private maintenance?: Promise<void>;
  private closed = false;

  constructor(
    private readonly options: InProcessBrokerOptions = {},
    durable?: { store: BrokerStore; state: StoredState },
  ) {
    this.redeliveryDelayMs = options.redeliveryDelayMs ?? 500;
    this.unreadRetention = options.unreadRetention ?? 10_000;
    this.tailLimit = options.tailLimit ?? 2_000;
    this.compactionThreshold = options.compactionThreshold ?? 1_000;
    this.store = durable?.store;
    this.stored = durable?.state;
    this.positions = new GroupPositions(
      durable?.store,
      durable?.state.offsets ?? [],
      options.positionCommitIntervalMs ?? 100,
      (error) => this.options.onError?.(error, { during: 'committing group positions' }),
    );
    if (this.store) {
      this.maintenanceTimer = setInterval(() => {
        if (!this.maintenance) {
          this.maintenance = this.maintain()
            .catch((error) => this.options.onError?.(error, { during: 'maintenance' }))
            .finally(() => (this.maintenance = undefined));
        }
      }, options.maintenanceIntervalMs ?? 1_000);
      this.maintenanceTimer.unref();
    }
  }

  /** A broker whose log and group positions live in `store`, resuming what an earlier run left there. */
  static async open(store: BrokerStore, options: InProcessBrokerOptions = {}): Promise<InProcessBroker> {
    const state = await store.load();
    return new InProcessBroker(options, { store, state });
  }

  createTopic(name: string, partitions: number, compacted = false): void {
    if (this.topics.has(name)) return;
    const stored = this.stored?.partitions.get(name);
    const committed = this.positions.groupsOf(name);
    this.topics.set(name, {
      compacted,
      // What an earlier run stored is compacted once soon after the start.
      appendedSinceCompaction: stored ? this.compactionThreshold : 0,
      partitions: Array.from({ length: partitions }, (_, partition) => {
        const range = stored?.get(partition);
        // The store keeps a partition's last message, so its end is known; a group's position can
        // be ahead only if every message was consumed and deleted, and then it is the end.
        const end = Math.max(range?.end ?? 0, ...committed.map((offsets) => offsets[partition] ?? 0));
        return new PartitionLog(range?.start ?? end, end);
      }),
    });
  }

  hasTopic(name: string): boolean {
    return this.topics.has(name);
  }

  /**
   * Appends in order: resolves once every subscribed group will see the records (with a store: once
   * they are committed there). Concurrent callers' records are written together, each caller's in
   * its order, and one caller's records all or none.
   */
  async append(
    topicName: string,
    records: readonly { key: string; value: string; headers?: MessageHeaders }[],
  ): Promise<void> {
    if (this.closed) throw new Error('in-process broker is closed');
    const topic = this.requireTopic(topicName);
    const placed = records.map((record) => ({
      partition: partitionFor(record.key, topic.partitions.length),
      key: record.key,
      value: record.value,
      headers: record.headers ?? {},
    }));
    if (placed.length === 0) return;
    if (!this.store) {
      this.commitAppend(
        placed.map((record) => {
          const log = topic.partitions[record.partition];
          return { topic: topicName, offset: log.end++, ...record };
        }),
      );
      return;
    }
    // PostgreSQL's text cannot hold NUL: refuse it here, or it would fail the other appends of its write.
    if (placed.some((record) => record.key.includes('\u0000') || record.value.includes('\u0000'))) {
      throw new Error('a message key or value holds a NUL character, which the store cannot keep');
    }
    return new Promise<void>((resolve, reject) => {
      this.pendingAppends.push({ topic: topicName, records: placed, resolve, reject });
      this.dispatchWrites();
    });
  }

  /** Joins `group` on `topicName`. Returns a function that leaves the group. */
  subscribe(
    topicName: string,
    group: string,
    handler: BatchHandler,
    options: SubscribeOptions = {},
  ): () => Promise<void> {
    const topic = this.requireTopic(topicName);
    const byGroup = this.groups.get(topicName) ?? new Map<string, GroupSubscription>();
    this.groups.set(topicName, byGroup);
    let subscription = byGroup.get(group);
    if (!subscription) {
      const ephemeral = options.ephemeral ?? false;
      const committed = ephemeral ? undefined : this.positions.find(topicName, group);
      subscription = {
        offsets: topic.partitions.map(
          (log, partition) =>
            committed?.[partition] ?? (options.fromBeginning === false ? log.end : log.start),
        ),
        members: [],
        pumping: new Set(),
        ephemeral,
      };
      byGroup.set(group, subscription);
      if (this.store && !ephemeral) {
        // From now on deleting respects this group; the store records where it starts, so that a
        // restart before its first commit starts it there again.
        const positions = this.positions.of(topicName, group);
        subscription.offsets.forEach((offset, partition) => {
          if (positions[partition] === undefined) {
            positions[partition] = offset;
            this.positions.schedule({ topic: topicName, group, partition, offset });
          }
        });
      }
    }
    const member: Member = { handler, maxBatchSize: options.maxBatchSize ?? 500, partitions: new Set() };
    subscription.members.push(member);
    this.rebalance(topicName, group);
    return async () => {
      const current = byGroup.get(group);
      if (!current) return;
      current.members = current.members.filter((m) => m !== member);
      member.partitions.clear();
      this.rebalance(topicName, group);
      await this.idle();
    };
  }

  /** Position of a group on a partition in this process (for tests and lag reporting). */
  committedOffset(topicName: string, group: string, partition: number): number | undefined {
    return this.groups.get(topicName)?.get(group)?.offsets[partition];
  }

  /**
   * Every subscribed group's lag on every partition, in messages: the partition's end less the group's
   * next offset (offsets may have gaps, so this can overstate a compacted topic's lag slightly).
   */
  consumerLag(): { group: string; topic: string; partition: number; lag: number }[] {
    const samples: { group: string; topic: string; partition: number; lag: number }[] = [];
    for (const [topic, groups] of this.groups) {
      const log = this.topics.get(topic);
      if (!log) continue;
      for (const [group, subscription] of groups) {
        log.partitions.forEach((partition, index) => {
          const next = subscription.offsets[index] ?? partition.start;
          samples.push({ group, topic, partition: index, lag: Math.max(0, partition.end - next) });
        });
      }
    }
    return samples;
  }

  /** Messages of a topic still held, all partitions (for tests and inspection of dead letters). */
  async peek(topicName: string): Promise<RawMessage[]> {
    const topic = this.requireTopic(topicName);
    const messages: RawMessage[] = [];
    for (const [partition, log] of topic.partitions.entries()) {
      for (let from = log.start; from < log.end;) {
        const chunk = await this.read(topicName, partition, log, from, 1_000);
        if (chunk.length === 0) break;
        messages.push(...chunk);
        from = Number(chunk[chunk.length - 1].offset) + 1;
      }
    }
    return messages;
  }

  /**
   * Resolves once every group has handled every message appended so far, including what handlers
   * append meanwhile, and no redelivery is pending. Lets a test check that nothing (more) arrived
   * without sleeping for a guessed while.
   */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) {
      await Promise.allSettled([...this.inFlight]);
    }
  }

  /** Throws if the store cannot be reached (for the readiness probe). */
  async checkHealth(): Promise<void> {
    await this.store?.ping();
  }

  /**
   * Stops delivering (a running batch finishes), writes what was appended and the groups' positions,
   * then closes the store. Appends after this reject.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.maintenanceTimer);
    await this.idle();
    await this.positions.close();
    await this.maintenance;
    await this.store?.close();
  }

  /**
   * Deletes from the store what every group has committed (keeping each partition's last message,
   * which records where the partition ends), all but the newest `unreadRetention` messages of topics
   * no group reads, and superseded messages of compacted topics. Runs every `maintenanceIntervalMs`;
   * public so that tests can run it when they choose.
   */
  async maintain(): Promise<void> {
    if (!this.store) return;
    const cuts: DeleteRange[] = [];
    const compact: string[] = [];
    for (const [name, topic] of this.topics) {
      if (topic.compacted) {
        if (topic.appendedSinceCompaction >= this.compactionThreshold) compact.push(name);
        continue;
      }
      const durableGroups = this.positions.groupsOf(name);
      const ephemeralGroups = [...(this.groups.get(name)?.values() ?? [])].filter((g) => g.ephemeral);
      topic.partitions.forEach((log, partition) => {
        const positions = [
          ...durableGroups.map((offsets) => offsets[partition] ?? log.start),
          ...ephemeralGroups.map((group) => group.offsets[partition]),
        ];
        const wanted = positions.length > 0 ? Math.min(...positions) : log.end - this.unreadRetention;
        const before = Math.min(wanted, log.end - 1, log.start + MAX_DELETE_PER_PARTITION);
        if (before > log.start) cuts.push({ topic: name, partition, from: log.start, before });
      });
    }
    if (cuts.length > 0) {
      await this.store.deleteBefore(cuts);
      for (const cut of cuts) {
        const log = this.requireTopic(cut.topic).partitions[cut.partition];
        log.start = Math.max(log.start, cut.before);
      }
    }
    for (const name of compact) {
      const topic = this.requireTopic(name);
      const appended = topic.appendedSinceCompaction;
      await this.store.compact(name);
      topic.appendedSinceCompaction -= appended;
    }
  }

  private track(work: Promise<void>): void {
    const tracked = work.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  /**
   * The writer: takes whatever is queued, assigns the next offsets of each partition in queue order,
   * and stores it in one statement, with at most MAX_WRITES_IN_FLIGHT statements running. Offsets are
   * assigned here, in one place, so they are never handed out twice and a partition's order is the
   * queue's; writes become visible and answer their callers in that same order (`settleWrites`).
   */
  private dispatchWrites(): void {
    while (this.pendingAppends.length > 0 && this.writes.length < MAX_WRITES_IN_FLIGHT) {
      const write: Write = { appends: [], messages: [] };
      while (
        this.pendingAppends.length > 0 &&
        (write.messages.length === 0 ||
          write.messages.length + this.pendingAppends[0].records.length <= MAX_ROWS_PER_WRITE)
      ) {
        const append = this.pendingAppends.shift()!;
        const topic = this.requireTopic(append.topic);
        write.appends.push(append);
        for (const record of append.records) {
          const offset = topic.partitions[record.partition].assigned++;
          write.messages.push({ topic: append.topic, offset, ...record });
        }
      }
      this.writes.push(write);
      this.track(
        this.store!.append(write.messages).then(
          () => this.settleWrites(write, { ok: true }),
          (error: unknown) => this.settleWrites(write, { ok: false, error }),
        ),
      );
    }
  }

  /**
   * Publishes finished writes in dispatch order: a write that finished before an earlier one waits
   * for it, so a consumer never sees a later message before an earlier one of its partition. A
   * failed write's offsets are left unused (a gap, as Kafka has); if nothing was dispatched after it,
   * they are handed out again.
   */
  private settleWrites(write: Write, outcome: NonNullable<Write['outcome']>): void {
    write.outcome = outcome;
    while (this.writes.length > 0 && this.writes[0].outcome) {
      const done = this.writes.shift()!;
      if (done.outcome!.ok) {
        this.commitAppend(done.messages);
        for (const append of done.appends) append.resolve();
      } else {
        for (const append of done.appends) append.reject((done.outcome as { error: unknown }).error);
        if (this.writes.length === 0) {
          for (const message of done.messages) {
            const log = this.requireTopic(message.topic).partitions[message.partition];
            log.assigned = log.end;
          }
        }
      }
    }
    this.dispatchWrites();
  }

  /** Makes stored records visible, and wakes the groups of their partitions. */
  private commitAppend(messages: readonly StoredMessage[]): void {
    const touched = new Map<string, Set<number>>();
    for (const { topic: topicName, partition, offset, key, value, headers } of messages) {
      const topic = this.requireTopic(topicName);
      const log = topic.partitions[partition];
      log.tail.push({ offset, record: { key, value, headers } });
      log.end = offset + 1;
      topic.appendedSinceCompaction++;
      const partitions = touched.get(topicName) ?? new Set<number>();
      touched.set(topicName, partitions);
      partitions.add(partition);
    }
    for (const [topicName, partitions] of touched) {
      for (const partition of partitions) this.trimTail(topicName, partition);
      for (const [group] of this.groups.get(topicName) ?? []) {
        for (const partition of partitions) this.schedule(topicName, group, partition);
      }
    }
  }

  /** Spreads partitions over members round-robin; a partition's running batch finishes first. */
  private rebalance(topicName: string, group: string): void {
    const subscription = this.groups.get(topicName)?.get(group);
    if (!subscription) return;
    const partitionCount = this.requireTopic(topicName).partitions.length;
    subscription.members.forEach((member) => member.partitions.clear());
    if (subscription.members.length === 0) return;
    for (let partition = 0; partition < partitionCount; partition++) {
      subscription.members[partition % subscription.members.length].partitions.add(partition);
      this.schedule(topicName, group, partition);
    }
  }

  private schedule(topicName: string, group: string, partition: number): void {
    const subscription = this.groups.get(topicName)?.get(group);
    if (!subscription || subscription.pumping.has(partition) || this.closed) return;
    subscription.pumping.add(partition);
    this.track(
      this.pump(topicName, group, subscription, partition).finally(() =>
        subscription.pumping.delete(partition),
      ),
    );
  }

  /** Delivers a partition's backlog to its owning member, one batch at a time, committing after each. */
  private async pump(topicName: string, group: string, subscription: GroupSubscription, partition: number) {
    // Let the appender finish its synchronous work first, as a network hop would.
    await new Promise((resolve) => setImmediate(resolve));
    const log = this.requireTopic(topicName).partitions[partition];
    while (!this.closed) {
      const member = subscription.members.find((m) => m.partitions.has(partition));
      const offset = Math.max(subscription.offsets[partition], log.start);
      if (!member || offset >= log.end) return;
      try {
        const messages = await this.read(topicName, partition, log, offset, member.maxBatchSize);
        if (messages.length === 0) {
          // Everything from `offset` to the tail was compacted away.
          subscription.offsets[partition] = Math.max(offset, log.tailBase);
          continue;
        }
        await member.handler({ topic: topicName, partition, messages });
        const next = Number(messages[messages.length - 1].offset) + 1;
        subscription.offsets[partition] = next;
        if (this.store && !subscription.ephemeral) {
          this.positions.schedule({ topic: topicName, group, partition, offset: next });
        }
        this.trimTail(topicName, partition);
      } catch (error) {
        this.options.onError?.(error, { topic: topicName, group, partition, during: 'delivery' });
        await sleep(this.redeliveryDelayMs);
      }
    }
  }

  private async read(
    topicName: string,
    partition: number,
    log: PartitionLog,
    from: number,
    max: number,
  ): Promise<RawMessage[]> {
    if (from >= log.tailBase) return log.readTail(from, max);
    // Older than the tail: only with a store (without one, tailBase is the log's start).
    return this.store!.read(topicName, partition, from, max);
  }

  /**
   * Without a store: drops what every group has consumed (compacted topics keep everything; snapshots
   * are small), or all but `unreadRetention` records of a topic no group reads. With one: the tail only
   * caches, so it drops what every subscribed group has read, and keeps at most `tailLimit` records.
   */
  private trimTail(topicName: string, partition: number): void {
    const topic = this.requireTopic(topicName);
    const log = topic.partitions[partition];
    const groups = [...(this.groups.get(topicName)?.values() ?? [])];
    if (this.store) {
      const read = groups.length > 0 ? Math.min(...groups.map((g) => g.offsets[partition])) : log.end;
      const before = Math.max(read, log.end - this.tailLimit);
      // In chunks: splicing the head on every batch would be quadratic.
      if (before - log.tailBase >= 500 || before === log.end) log.dropTailBefore(before, true);
      return;
    }
    if (topic.compacted) return;
    if (groups.length === 0) {
      if (log.tail.length > this.unreadRetention) log.dropTailBefore(log.end - this.unreadRetention, false);
      return;
    }
    const slowest = Math.min(...groups.map((g) => g.offsets[partition]));
    if (slowest - log.tailBase >= 1_000 || slowest === log.end) log.dropTailBefore(slowest, false);
  }

  private requireTopic(name: string): TopicLog {
    const topic = this.topics.get(name);
    if (!topic) throw new Error(`topic ${name} does not exist (topics are provisioned, not auto-created)`);
    return topic;
  }
}
