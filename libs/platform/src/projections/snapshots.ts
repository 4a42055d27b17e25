import type { EntityManager } from 'typeorm';
import { snapshotQueries } from './snapshots.queries';

/**
 * Reference data another service owns reaches a service as snapshots on a compacted topic (companies
 * from auth, vehicles from query-api): each the whole current state of one entity, with a version
 * that grows with every change. A consumer keeps the newest one per entity. Redelivery and replays
 * of the topic bring older or equal versions again, and they must change nothing: both helpers here
 * apply a snapshot only when it is at least as new as what is held.
 */
export interface VersionedSnapshot {
  version: number;
}

/** What applying a snapshot changed: the snapshot held before (if any) and the one held now. */
export interface SnapshotChange<S> {
  previous: S | undefined;
  current: S;
}

/** A projection held in memory: the newest snapshot per key. */
export class SnapshotMap<K, S extends VersionedSnapshot> {
  private readonly held = new Map<K, S>();

  constructor(private readonly keyOf: (snapshot: S) => K) {}

  /** Applies snapshots in order; returns the changes, so that an index kept beside can follow them. */
  apply(snapshots: readonly S[]): SnapshotChange<S>[] {
    const changes: SnapshotChange<S>[] = [];
    for (const snapshot of snapshots) {
      const key = this.keyOf(snapshot);
      const previous = this.held.get(key);
      if (previous && previous.version > snapshot.version) continue;
      this.held.set(key, snapshot);
      changes.push({ previous, current: snapshot });
    }
    return changes;
  }

  get(key: K): S | undefined {
    return this.held.get(key);
  }

  keys(): IterableIterator<K> {
    return this.held.keys();
  }
}

/** Where a projection of snapshots is kept in PostgreSQL: one row per entity, with its version. */
export interface SnapshotTable<S extends VersionedSnapshot> {
  /** Schema-qualified table name, e.g. `ingest.device_sessions`. */
  table: string;
  /** The key column (unique), e.g. `vehicle_id`. */
  key: string;
  /** The row of a snapshot: the key column, `version`, and whatever else the table keeps. */
  rowOf(snapshot: S): Record<string, unknown>;
  /** A snapshot that says the entity is gone: its row is deleted (if not newer). */
  isDeleted?(snapshot: S): boolean;
}

/**
 * Applies snapshots to their table in order, inside the caller's transaction: an upsert that only
 * replaces an older row, and a delete that only removes a row not newer than the deletion.
 */
export async function applySnapshotRows<S extends VersionedSnapshot>(
  manager: EntityManager,
  target: SnapshotTable<S>,
  snapshots: readonly S[],
): Promise<void> {
  for (const snapshot of snapshots) {
    const row = target.rowOf(snapshot);
    if (target.isDeleted?.(snapshot)) {
      await snapshotQueries.deleteUnlessNewer(
        manager,
        target.table,
        target.key,
        row[target.key],
        snapshot.version,
      );
    } else {
      await snapshotQueries.upsertIfNewer(manager, target.table, target.key, row);
    }
  }
}
