/**
 * What bench/commands reads and writes of the services' tables: the projections it waits for, the
 * commands' statuses it reads back, phase 2's vehicles seeded into command-gateway's projection,
 * and the outbox it waits to see emptied.
 */
import type { Pool } from 'pg';

/** A command's status as command-gateway recorded it. */
export interface CommandStatusRow {
  id: string;
  status: string;
  finished_at: Date | null;
}

export class CommandBenchQueries {
  constructor(private readonly pool: Pool) {}

  /** Devices telemetry-ingest's projection knows. */
  async ingestDeviceSessions(): Promise<number> {
    return this.count('SELECT count(*) AS n FROM ingest.device_sessions');
  }

  /** Vehicles command-gateway's projection knows. */
  async gatewayVehicles(): Promise<number> {
    return this.count('SELECT count(*) AS n FROM commands.vehicles');
  }

  /** The status and finish time of each of these commands. */
  async statusesOf(ids: string[]): Promise<CommandStatusRow[]> {
    const { rows } = await this.pool.query<CommandStatusRow>(
      'SELECT id, status, finished_at FROM commands.commands WHERE id = ANY($1::uuid[])',
      [ids],
    );
    return rows;
  }

  /** Vehicles `first`..`last` of one company, written straight into command-gateway's projection. */
  async seedVehicles(first: number, last: number, companyId: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO commands.vehicles (vehicle_id, company_ids, version)
         SELECT g, ARRAY[$3::int], 1 FROM generate_series($1::int, $2::int) g`,
      [first, last, companyId],
    );
    await this.pool.query('VACUUM ANALYZE commands.vehicles');
  }

  /** Rows in command-gateway's outbox that its relay has not published yet. */
  async outboxRows(): Promise<number> {
    return this.count('SELECT count(*) AS n FROM commands.outbox');
  }

  private async count(sql: string): Promise<number> {
    return Number((await this.pool.query<{ n: string }>(sql)).rows[0].n);
  }
}
