import { RawMessage } from '../message';
import { StoredRecord } from './broker-store';

interface TailEntry {
  offset: number;
  record: StoredRecord;
}

/**
 * One partition. `start`/`end` bound what consumers may read (the first retained offset, and one
 * past the last visible message); `assigned` is the next offset the writer hands out, ahead of `end`
 * while writes are in flight. `tail` holds the newest visible records in offset order, up to `end`.
 * Without a store the tail is the whole retained log; with one it caches what subscribed groups have
 * yet to read, and older records are read from the store. Offsets may have gaps (a failed write's,
 * compacted messages): a reader continues after the last offset it got.
 */
export class PartitionLog {
  tail: TailEntry[] = [];
  assigned: number;

  constructor(
    public start = 0,
    public end = start,
  ) {
    this.assigned = end;
  }

  /** Every visible record from here on is in the tail. */
  get tailBase(): number {
    return this.tail.length > 0 ? this.tail[0].offset : this.end;
  }

  readTail(from: number, max: number): RawMessage[] {
    return this.tail.slice(this.indexOf(from), this.indexOf(from) + max).map(({ offset, record }) => ({
      ...record,
      offset: String(offset),
    }));
  }

  /** Forgets the tail's records below `offset` (and, without a store, the log's). */
  dropTailBefore(offset: number, durable: boolean): void {
    this.tail.splice(0, this.indexOf(offset));
    if (!durable) this.start = Math.max(this.start, Math.min(offset, this.end));
  }

  /** Index of the first tail entry at or after `offset` (binary search: the tail is in offset order). */
  private indexOf(offset: number): number {
    let low = 0;
    let high = this.tail.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.tail[middle].offset < offset) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

export interface TopicLog {
  compacted: boolean;
  partitions: PartitionLog[];
  /** Messages appended since the store last compacted this topic. */
  appendedSinceCompaction: number;
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
