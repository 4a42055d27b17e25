import { AlertFiredV1, CommandStatusChangedV1 } from '@fleet/contracts';
import { AlertRecordFields } from '@fleet/formats';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PositionRow, StoredPosition, toStored } from '../position-records/stored-position';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { RowMark, PositionMark } from './live-cursor';

/** The channel every transaction that adds live rows notifies at its commit (LiveTail listens). */
export const LIVE_CHANNEL = 'query_live';

/** A position as the live channels read it: the stored row and where it stands in acceptance order. */
export interface LivePosition {
  mark: PositionMark;
  stored: StoredPosition;
}

/**
 * An alert as the live channels keep it (as JSON): the record's fields, its time as ISO text, and its
 * company; a record just fired is unread, so it has no read state.
 */
export type LiveAlertRecord = Omit<AlertRecordFields, 'utcTime' | 'isRead'> & {
  utcTime: string;
  companyId: number;
};

export interface LiveAlert {
  mark: RowMark;
  record: LiveAlertRecord;
}

/** A command status change: the V2 command record and the company that sent the command. */
export interface LiveCommand {
  mark: RowMark;
  change: CommandStatusChangedV1;
}

/** Which rows a reader may see; null fields do not narrow. */
export interface LiveScope {
  /** Positions and commands: only these vehicles. */
  vehicleIds: number[] | null;
  /** Alerts and commands: only of these companies (the alert's configuration, the command's sender)… */
  companyIds: number[] | null;
  /** …and alerts only of these vehicles. */
  alertVehicleIds: number[] | null;
}

export const UNSCOPED: LiveScope = { vehicleIds: null, companyIds: null, alertVehicleIds: null };

type LivePositionRow = Omit<PositionRow, 'total' | 'fix_time' | 'last_seen_at'> & {
  xid: string;
  fix_us: string;
};

/**
 * All SQL of the live stream and the change feed (docs/stream.md). Rows are read in acceptance order,
 * and only up to a horizon: the oldest transaction still running when the read began. Every older
 * transaction has ended, so no row can appear later behind a reader's position; rows of transactions
 * still running wait until they end (a long writing transaction anywhere on the server delays the
 * stream by as long as it runs).
 */
@Injectable()
export class LiveQueries {
  constructor(@InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource) {}

  /** The current horizon: every transaction before it has ended. */
  async horizon(): Promise<bigint> {
    const [row]: { horizon: string }[] = await this.dataSource.query(
      'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon',
    );
    return BigInt(row.horizon);
  }

  /**
   * Positions after `after` of transactions before `horizon`, in acceptance order. The V2 record's
   * motion facts are the vehicle's stored ones while the position is still its last one, and none for
   * an older fix (a record sent late).
   */
  async positionsAfter(
    after: PositionMark,
    horizon: bigint,
    scope: LiveScope,
    limit: number,
  ): Promise<LivePosition[]> {
    const rows: LivePositionRow[] = await this.dataSource.query(
      `SELECT p.accepted_xid::text AS xid, (extract(epoch FROM p.fix_time) * 1000000)::bigint::text AS fix_us,
              p.vehicle_id, v.name, v.imei, v.vin, p.received_at, p.lat, p.lng, p.speed_kmh, p.course, p.ignition, p.readings,
              lp.motion
         FROM query.positions p
         JOIN query.vehicles v ON v.id = p.vehicle_id
         LEFT JOIN query.last_positions lp ON lp.vehicle_id = p.vehicle_id AND lp.fix_time = p.fix_time
        WHERE p.accepted_xid IS NOT NULL
          AND (p.accepted_xid, p.vehicle_id, p.fix_time) >
              ($1::bigint, $2::int, timestamptz 'epoch' + $3::bigint * interval '1 microsecond')
          AND p.accepted_xid < $4::bigint
          AND ($5::int[] IS NULL OR p.vehicle_id = ANY($5::int[]))
        ORDER BY p.accepted_xid, p.vehicle_id, p.fix_time
        LIMIT $6`,
      [after.xid.toString(), after.vehicleId, after.fixTimeUs, horizon.toString(), scope.vehicleIds, limit],
    );
    return rows.map((row) => {
      const fixTimeUs = Number(row.fix_us);
      // A page is thousands of rows: the fix time comes once (as microseconds, for the mark), and a
      // live position was last seen when it was received.
      const fixTime = new Date(Math.floor(fixTimeUs / 1000));
      return {
        mark: { xid: BigInt(row.xid), vehicleId: row.vehicle_id, fixTimeUs },
        stored: toStored(Object.assign(row, { fix_time: fixTime, last_seen_at: row.received_at })),
      };
    });
  }

  /** Alerts after `after` of transactions before `horizon`, in acceptance order. */
  async alertsAfter(after: RowMark, horizon: bigint, scope: LiveScope, limit: number): Promise<LiveAlert[]> {
    const rows: { xid: string; record_id: string; record: LiveAlertRecord }[] = await this.dataSource.query(
      `SELECT accepted_xid::text AS xid, record_id, record
         FROM query.live_alerts
        WHERE (accepted_xid, record_id) > ($1::bigint, $2::bigint)
          AND accepted_xid < $3::bigint
          AND ($4::int[] IS NULL OR company_id = ANY($4::int[]))
          AND ($5::int[] IS NULL OR vehicle_id = ANY($5::int[]))
        ORDER BY accepted_xid, record_id
        LIMIT $6`,
      [after.xid.toString(), after.key, horizon.toString(), scope.companyIds, scope.alertVehicleIds, limit],
    );
    return rows.map((row) => ({
      mark: { xid: BigInt(row.xid), key: Number(row.record_id) },
      record: row.record,
    }));
  }

  /** Command status changes after `after` of transactions before `horizon`, in acceptance order. */
  async commandsAfter(
    after: RowMark,
    horizon: bigint,
    scope: LiveScope,
    limit: number,
  ): Promise<LiveCommand[]> {
    const rows: { xid: string; seq: string; record: CommandStatusChangedV1 }[] = await this.dataSource.query(
      `SELECT accepted_xid::text AS xid, seq, record
         FROM query.live_commands
        WHERE (accepted_xid, seq) > ($1::bigint, $2::bigint)
          AND accepted_xid < $3::bigint
          AND ($4::int[] IS NULL OR company_id = ANY($4::int[]))
          AND ($5::int[] IS NULL OR vehicle_id = ANY($5::int[]))
        ORDER BY accepted_xid, seq
        LIMIT $6`,
      [after.xid.toString(), after.key, horizon.toString(), scope.companyIds, scope.vehicleIds, limit],
    );
    return rows.map((row) => ({ mark: { xid: BigInt(row.xid), key: Number(row.seq) }, change: row.record }));
  }

  /** Keeps command status changes, in the consumer's transaction (each change once); notifies at commit. */
  async keepCommandChanges(
    manager: EntityManager,
    changes: readonly CommandStatusChangedV1[],
  ): Promise<void> {
    if (changes.length === 0) return;
    await manager.query(
      `INSERT INTO query.live_commands (command_id, status, company_id, vehicle_id, record)
       SELECT (r->>'id')::uuid, r->>'status', (r->>'companyId')::int, (r->>'vehicleId')::int, r
         FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS changes(r, n)
        ORDER BY n
       ON CONFLICT (command_id, status) DO NOTHING`,
      [JSON.stringify(changes)],
    );
    await this.notify(manager);
  }

  /**
   * Keeps fired alerts for the live channels, in the consumer's transaction; a redelivered one is kept
   * once. Notifies the live channel at commit.
   */
  async keepAlerts(manager: EntityManager, alerts: readonly AlertFiredV1[]): Promise<void> {
    if (alerts.length === 0) return;
    const records: LiveAlertRecord[] = alerts.map((alert) => ({
      id: alert.recordId,
      utcTime: alert.fixTime,
      companyId: alert.companyId,
      configurationId: alert.configurationId,
      alertTypeId: alert.alertTypeId,
      vehicleId: alert.vehicleId,
      vehicleName: alert.vehicleName,
      description: alert.description ?? '',
      lat: alert.lat,
      lng: alert.lng,
      address: alert.addressLine ?? null,
    }));
    await manager.query(
      `INSERT INTO query.live_alerts (record_id, company_id, vehicle_id, utc_time, record)
       SELECT (r->>'id')::bigint, (r->>'companyId')::int, (r->>'vehicleId')::int, (r->>'utcTime')::timestamptz, r
         FROM jsonb_array_elements($1::jsonb) AS r
       ON CONFLICT (record_id) DO NOTHING`,
      [JSON.stringify(records)],
    );
    await this.notify(manager);
  }

  /**
   * Wakes every replica's LiveTail once the caller's transaction commits, telling it the transaction's
   * id: its rows become readable once every older transaction has ended too (LiveTail rechecks).
   */
  async notify(manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_notify('${LIVE_CHANNEL}', pg_current_xact_id()::text)`);
  }

  /** Notes the current horizon with the time, for the feed's `since`. */
  async markClock(): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO query.live_clock (at, horizon) VALUES (now(), pg_snapshot_xmin(pg_current_snapshot())::text::bigint)
       ON CONFLICT (at) DO NOTHING`,
    );
  }

  /**
   * Where to start for `since`: the horizon noted at the latest time at or before it (so the feed
   * starts at most one clock interval early), or the very beginning when none is that old.
   */
  async horizonAt(since: Date): Promise<bigint> {
    const [row]: { horizon: string }[] = await this.dataSource.query(
      'SELECT horizon::text AS horizon FROM query.live_clock WHERE at <= $1 ORDER BY at DESC LIMIT 1',
      [since],
    );
    return row ? BigInt(row.horizon) : 0n;
  }

  /**
   * The horizon noted at the earliest time at or after `at` (or the current one when none is that
   * recent): every transaction below it had ended by then, so a reader standing below it would be
   * given rows accepted before `at` (up to one clock interval later, never earlier).
   */
  async horizonSince(at: Date): Promise<bigint> {
    const [row]: { horizon: string }[] = await this.dataSource.query(
      'SELECT horizon::text AS horizon FROM query.live_clock WHERE at >= $1 ORDER BY at LIMIT 1',
      [at],
    );
    return row ? BigInt(row.horizon) : this.horizon();
  }

  /** Drops kept alerts, command changes and clock marks older than `before`, at most `batch` rows of each; the count dropped. */
  async sweep(before: Date, batch: number): Promise<number> {
    const alerts: unknown[] = await this.dataSource.query(
      `DELETE FROM query.live_alerts WHERE record_id IN
         (SELECT record_id FROM query.live_alerts WHERE accepted_at < $1 LIMIT $2) RETURNING 1`,
      [before, batch],
    );
    const marks: unknown[] = await this.dataSource.query(
      `DELETE FROM query.live_clock WHERE at IN (SELECT at FROM query.live_clock WHERE at < $1 LIMIT $2) RETURNING 1`,
      [before, batch],
    );
    const commands: unknown[] = await this.dataSource.query(
      `DELETE FROM query.live_commands WHERE seq IN
         (SELECT seq FROM query.live_commands WHERE accepted_at < $1 LIMIT $2) RETURNING 1`,
      [before, batch],
    );
    return alerts.length + marks.length + commands.length;
  }

  /** Vehicles mapped to any of `companyIds`. */
  async vehiclesOf(companyIds: readonly number[]): Promise<number[]> {
    const rows: { vehicle_id: number }[] = await this.dataSource.query(
      'SELECT DISTINCT vehicle_id FROM query.vehicle_companies WHERE company_id = ANY($1::int[])',
      [companyIds],
    );
    return rows.map((row) => row.vehicle_id);
  }

  /**
   * Opens a stream's lease unless `subject` already holds `max` live ones (counted under a lock on the
   * subject, so two replicas cannot both admit the last one). Returns whether it was opened.
   */
  async openLease(id: string, subject: string, max: number, leaseSeconds: number): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`live_streams:${subject}`]);
      await manager.query('DELETE FROM query.live_streams WHERE subject = $1 AND expires_at <= now()', [
        subject,
      ]);
      const [{ open }]: { open: number }[] = await manager.query(
        'SELECT count(*)::int AS open FROM query.live_streams WHERE subject = $1',
        [subject],
      );
      if (open >= max) return false;
      await manager.query(
        `INSERT INTO query.live_streams (id, subject, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
        [id, subject, leaseSeconds],
      );
      return true;
    });
  }

  /** Extends the leases of a replica's open streams. */
  async renewLeases(ids: readonly string[], leaseSeconds: number): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(
      'UPDATE query.live_streams SET expires_at = now() + make_interval(secs => $2) WHERE id = ANY($1::uuid[])',
      [ids, leaseSeconds],
    );
  }

  async closeLease(id: string): Promise<void> {
    await this.dataSource.query('DELETE FROM query.live_streams WHERE id = $1', [id]);
  }
}
