import { BrokerStore, GroupOffset } from './broker-store';

const keyOf = (offset: GroupOffset) => `${offset.topic}\u0000${offset.group}\u0000${offset.partition}`;

/**
 * The consumer groups' committed positions of the in-process broker: what the store holds (loaded at
 * the start; deleting from the store must respect it), and the positions groups reach since, written
 * to the store within `commitIntervalMs`. Positions that pile up meanwhile go in one write (only the
 * newest of each partition). A crash loses at most that much progress: redelivered, as at-least-once
 * allows. Without a store nothing is written.
 */
export class GroupPositions {
  /** By topic, then group: the position per partition. */
  private readonly committed = new Map<string, Map<string, number[]>>();
  private readonly pending = new Map<string, GroupOffset>();
  private timer?: NodeJS.Timeout;
  private committing?: Promise<void>;
  private closed = false;

  constructor(
    private readonly store: BrokerStore | undefined,
    stored: readonly GroupOffset[],
    private readonly commitIntervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {
    for (const offset of stored) this.of(offset.topic, offset.group)[offset.partition] = offset.offset;
  }

  /** The group's committed positions by partition; an empty list is made for a group not seen yet. */
  of(topic: string, group: string): number[] {
    const byGroup = this.committed.get(topic) ?? new Map<string, number[]>();
    this.committed.set(topic, byGroup);
    const offsets = byGroup.get(group) ?? [];
    byGroup.set(group, offsets);
    return offsets;
  }

  /** The group's committed positions, if it has any. */
  find(topic: string, group: string): number[] | undefined {
    return this.committed.get(topic)?.get(group);
  }

  /** Every group's committed positions on `topic`. */
  groupsOf(topic: string): number[][] {
    return [...(this.committed.get(topic)?.values() ?? [])];
  }

  /** Records a group's new position in the store within the commit interval. */
  schedule(offset: GroupOffset): void {
    if (!this.store) return;
    this.pending.set(keyOf(offset), offset);
    this.arm();
  }

  /** Stops the timer and writes what is pending. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.committing;
    if (this.store) await this.commit();
  }

  private arm(): void {
    if (this.timer || this.committing || this.closed || this.pending.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.committing = this.commit().finally(() => {
        this.committing = undefined;
        this.arm();
      });
    }, this.commitIntervalMs);
  }

  private async commit(): Promise<void> {
    if (this.pending.size === 0 || !this.store) return;
    const offsets = [...this.pending.values()];
    this.pending.clear();
    try {
      await this.store.commit(offsets);
    } catch (error) {
      this.onError(error);
      // Retried with the newest positions; if the process dies first, the groups get redeliveries.
      for (const offset of offsets)
        if (!this.pending.has(keyOf(offset))) this.pending.set(keyOf(offset), offset);
      return;
    }
    for (const offset of offsets) {
      const positions = this.of(offset.topic, offset.group);
      positions[offset.partition] = Math.max(positions[offset.partition] ?? 0, offset.offset);
    }
  }
}
