import { MessageHeaders, RawBatch, RawMessage } from '../message';

interface StoredRecord {
  key: string | null;
  value: string;
  headers: MessageHeaders;
}

/** One partition: an append-only log whose head is dropped once every group has consumed it. */
class PartitionLog {
  /** Offset of records[0]. */
  baseOffset = 0;
  records: StoredRecord[] = [];

  get endOffset(): number {
    return this.baseOffset + this.records.length;
  }

  read(from: number, max: number): RawMessage[] {
    const start = Math.max(from, this.baseOffset) - this.baseOffset;
    return this.records.slice(start, start + max).map((record, index) => ({
      ...record,
      offset: String(this.baseOffset + start + index),
    }));
  }

  dropBefore(offset: number): void {
    const count = offset - this.baseOffset;
    if (count > 0) {
      this.records.splice(0, count);
      this.baseOffset = offset;
    }
  }
}

interface TopicLog {
  compacted: boolean;
  partitions: PartitionLog[];
}

export type BatchHandler = (batch: RawBatch) => Promise<void>;

interface Member {
  handler: BatchHandler;
  maxBatchSize: number;
  partitions: Set<number>;
}

/** A consumer group's view of one topic: committed offsets and the members sharing its partitions. */
interface GroupSubscription {
  offsets: number[];
  members: Member[];
  pumping: Set<number>;
}

export interface InProcessBrokerOptions {
  /** Pause before a partition is retried after its handler failed to commit a batch. */
  redeliveryDelayMs?: number;
  /** Records kept on a topic that no group reads (dead-letter topics), for inspection. */
  unreadRetention?: number;
  onError?: (error: unknown, context: { topic: string; group: string; partition: number }) => void;
}

/**
 * The embedded mode's stand-in for Kafka, with the semantics services rely on: per-key ordering
 * (a key always maps to one partition, consumed by one member at a time), consumer groups (each group
 * gets every message, its members share partitions), at-least-once delivery (an offset advances only
 * after the handler resolved; a rejected batch is redelivered). Messages live in memory: see
 * docs/architecture.md for what that means for a crash of the embedded process.
 */
export class InProcessBroker {
  private readonly topics = new Map<string, TopicLog>();
  private readonly groups = new Map<string, Map<string, GroupSubscription>>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly redeliveryDelayMs: number;
  private readonly unreadRetention: number;
  private closed = false;

  constructor(private readonly options: InProcessBrokerOptions = {}) {
    this.redeliveryDelayMs = options.redeliveryDelayMs ?? 500;
    this.unreadRetention = options.unreadRetention ?? 10_000;
  }

  createTopic(name: string, partitions: number, compacted = false): void {
    if (!this.topics.has(name)) {
      this.topics.set(name, {
        compacted,
        partitions: Array.from({ length: partitions }, () => new PartitionLog()),
      });
    }
  }

  hasTopic(name: string): boolean {
    return this.topics.has(name);
  }

  /** Appends synchronously: once this returns, every subscribed group will see the records. */
  append(
    topicName: string,
    records: readonly { key: string; value: string; headers?: MessageHeaders }[],
  ): void {
    if (this.closed) throw new Error('in-process broker is closed');
    const topic = this.requireTopic(topicName);
    const touched = new Set<number>();
    for (const record of records) {
      const partition = partitionFor(record.key, topic.partitions.length);
      topic.partitions[partition].records.push({
        key: record.key,
        value: record.value,
        headers: record.headers ?? {},
      });
      touched.add(partition);
    }
    for (const partition of touched) {
      this.trimUnread(topicName, partition);
    }
    for (const [group] of this.groups.get(topicName) ?? []) {
      for (const partition of touched) this.schedule(topicName, group, partition);
    }
  }

  /** Joins `group` on `topicName`. Resolves to a function that leaves the group. */
  subscribe(
    topicName: string,
    group: string,
    handler: BatchHandler,
    options: { fromBeginning?: boolean; maxBatchSize?: number } = {},
  ): () => Promise<void> {
    const topic = this.requireTopic(topicName);
    const byGroup = this.groups.get(topicName) ?? new Map<string, GroupSubscription>();
    this.groups.set(topicName, byGroup);
    let subscription = byGroup.get(group);
    if (!subscription) {
      subscription = {
        offsets: topic.partitions.map((log) =>
          options.fromBeginning === false ? log.endOffset : log.baseOffset,
        ),
        members: [],
        pumping: new Set(),
      };
      byGroup.set(group, subscription);
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

  /** Committed position of a group on a partition (for tests and lag reporting). */
  committedOffset(topicName: string, group: string, partition: number): number | undefined {
    return this.groups.get(topicName)?.get(group)?.offsets[partition];
  }

  /** Messages of a topic still held, all partitions (for tests and inspection of dead letters). */
  peek(topicName: string): RawMessage[] {
    return this.requireTopic(topicName).partitions.flatMap((log) =>
      log.read(log.baseOffset, log.records.length),
    );
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

  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }

  private requireTopic(name: string): TopicLog {
    const topic = this.topics.get(name);
    if (!topic) throw new Error(`topic ${name} does not exist (topics are provisioned, not auto-created)`);
    return topic;
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
    const run = this.pump(topicName, group, subscription, partition).finally(() => {
      subscription.pumping.delete(partition);
      this.inFlight.delete(run);
    });
    this.inFlight.add(run);
  }

  /** Delivers a partition's backlog to its owning member, one batch at a time, committing after each. */
  private async pump(topicName: string, group: string, subscription: GroupSubscription, partition: number) {
    // Let the appender finish its synchronous work first, as a network hop would.
    await new Promise((resolve) => setImmediate(resolve));
    const log = this.requireTopic(topicName).partitions[partition];
    while (!this.closed) {
      const member = subscription.members.find((m) => m.partitions.has(partition));
      const offset = Math.max(subscription.offsets[partition], log.baseOffset);
      if (!member || offset >= log.endOffset) return;
      const messages = log.read(offset, member.maxBatchSize);
      try {
        await member.handler({ topic: topicName, partition, messages });
        subscription.offsets[partition] = offset + messages.length;
        this.trimConsumed(topicName, partition);
      } catch (error) {
        this.options.onError?.(error, { topic: topicName, group, partition });
        await new Promise((resolve) => setTimeout(resolve, this.redeliveryDelayMs));
      }
    }
  }

  /** Drops what every group has committed; compacted topics keep everything (snapshots are small). */
  private trimConsumed(topicName: string, partition: number): void {
    const topic = this.requireTopic(topicName);
    if (topic.compacted) return;
    const groups = [...(this.groups.get(topicName)?.values() ?? [])];
    if (groups.length === 0) return;
    const slowest = Math.min(...groups.map((g) => g.offsets[partition]));
    const log = topic.partitions[partition];
    // Trim in chunks: splicing the head on every batch would be quadratic.
    if (slowest - log.baseOffset >= 1_000 || slowest === log.endOffset) log.dropBefore(slowest);
  }

  private trimUnread(topicName: string, partition: number): void {
    const topic = this.requireTopic(topicName);
    if (topic.compacted || (this.groups.get(topicName)?.size ?? 0) > 0) return;
    const log = topic.partitions[partition];
    if (log.records.length > this.unreadRetention) log.dropBefore(log.endOffset - this.unreadRetention);
  }
}

/** FNV-1a: stable across processes and restarts, so a key always lands on the same partition. */
export function partitionFor(key: string | null, partitions: number): number {
  if (key === null || key === '') return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}
