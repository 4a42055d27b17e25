/**
 * What bench/webhooks reads of the services' tables: the projections it waits for, the alert records
 * and deliveries it times, and PostgreSQL's row statistics of the deliveries.
 */
import type { Pool } from 'pg';

/** An overspeed record of alert-engine: its vehicle, fix time and transaction start. */
export interface OverspeedRecordRow {
  vehicle_id: number;
  utc_time: Date;
  created_at: Date;
}

/** A planned delivery with the start of its first attempt. */
export interface FirstAttemptRow {
  body: string;
  created_at: Date;
  started_at: Date;
}

export class WebhookBenchQueries {
  constructor(private readonly pool: Pool) {}

  /** Whether webhook-dispatcher's projection holds the alert configuration. */
  async configurationKnown(configurationId: number): Promise<boolean> {
    const { rows } = await this.pool.query(
      'SELECT 1 FROM webhooks.alert_configurations WHERE configuration_id = $1',
      [configurationId],
    );
    return rows.length > 0;
  }

  /** Vehicles alert-engine's projection knows. */
  async alertEngineVehicles(): Promise<number> {
    return this.count('SELECT count(*) AS n FROM alerts.vehicles');
  }

  /** Devices telemetry-ingest's projection knows. */
  async ingestDeviceSessions(): Promise<number> {
    return this.count('SELECT count(*) AS n FROM ingest.device_sessions');
  }

  /** Every overspeed record (alert type 10) alert-engine wrote. */
  async overspeedRecords(): Promise<OverspeedRecordRow[]> {
    const { rows } = await this.pool.query<OverspeedRecordRow>(
      `SELECT vehicle_id, utc_time, created_at FROM alerts.records WHERE alert_type_id = 10`,
    );
    return rows;
  }

  /** The deliveries of one webhook with the start of their first attempt. */
  async firstAttempts(webhookId: number): Promise<FirstAttemptRow[]> {
    const { rows } = await this.pool.query<FirstAttemptRow>(
      `SELECT d.body, d.created_at, a.started_at FROM webhooks.deliveries d
         JOIN webhooks.delivery_attempts a ON a.delivery_id = d.id AND a.attempt = 1
        WHERE d.webhook_id = $1`,
      [webhookId],
    );
    return rows;
  }

  /** Row updates of webhooks.deliveries so far, as PostgreSQL's statistics count them. */
  async deliveryRowUpdates(): Promise<number> {
    return this.count(
      `SELECT n_tup_upd AS n FROM pg_stat_user_tables WHERE schemaname = 'webhooks' AND relname = 'deliveries'`,
    );
  }

  /** The deliveries planned for these webhooks, and how many of them say delivered. */
  async deliveredOf(webhookIds: number[]): Promise<{ delivered: number; planned: number }> {
    const { rows } = await this.pool.query<{ delivered: string; planned: string }>(
      `SELECT count(*) FILTER (WHERE status = 'delivered') AS delivered, count(*) AS planned
         FROM webhooks.deliveries WHERE webhook_id = ANY($1::int[])`,
      [webhookIds],
    );
    return { delivered: Number(rows[0].delivered), planned: Number(rows[0].planned) };
  }

  /** The deliveries of these webhooks still pending, and those given up. */
  async pendingAndFailedOf(webhookIds: number[]): Promise<{ pending: number; failed: number }> {
    const { rows } = await this.pool.query<{ pending: string; failed: string }>(
      `SELECT count(*) FILTER (WHERE status = 'pending') AS pending, count(*) FILTER (WHERE status = 'failed') AS failed
         FROM webhooks.deliveries WHERE webhook_id = ANY($1::int[])`,
      [webhookIds],
    );
    return { pending: Number(rows[0].pending), failed: Number(rows[0].failed) };
  }

  private async count(sql: string): Promise<number> {
    return Number((await this.pool.query<{ n: string }>(sql)).rows[0].n);
  }
}
