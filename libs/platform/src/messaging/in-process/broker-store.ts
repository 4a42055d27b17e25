import { MessageHeaders, RawMessage } from '../message';

/** One message as the in-process broker keeps it. */
export interface StoredRecord {
  key: string | null;
  value: string;
  headers: MessageHeaders;
}

export interface StoredMessage extends StoredRecord {
  topic: string;
  partition: number;
  offset: number;
}

/** A consumer group's committed position on a partition: the offset of the next message it reads. */
export interface GroupOffset {
  topic: string;
  group: string;
  partition: number;
  offset: number;
}

export interface DeleteRange {
  topic: string;
  partition: number;
  from: number;
  before: number;
}

/** Where a partition's stored log starts (first retained offset) and ends (the next offset to assign). */
export interface PartitionRange {
  start: number;
  end: number;
}

export interface StoredState {
  /** Keyed by `topic` then partition; partitions that never held a message are absent. */
  partitions: Map<string, Map<number, PartitionRange>>;
  offsets: GroupOffset[];
}

/**
 * Where the in-process broker keeps its log and its groups' positions so that they survive the
 * process. Every write resolves only once it is committed. The broker is the only writer: it assigns
 * offsets itself (one append at a time), so the store never decides an order.
 */
export interface BrokerStore {
  /** What an earlier run left: read once, when the broker opens. */
  load(): Promise<StoredState>;
  /** Stores the messages atomically: all of them or none. */
  append(messages: readonly StoredMessage[]): Promise<void>;
  /** Up to `max` messages of a partition from `from` on, in offset order (gaps where messages were deleted). */
  read(topic: string, partition: number, from: number, max: number): Promise<RawMessage[]>;
  commit(offsets: readonly GroupOffset[]): Promise<void>;
  /** Deletes each partition's messages from `from` (its first retained offset) up to `before`. */
  deleteBefore(cuts: readonly DeleteRange[]): Promise<void>;
  /** Deletes every message of a topic that a later message of the same partition and key supersedes. */
  compact(topic: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
