import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The order in which the platform accepted positions and alerts, for the live stream and the change
 * feed (docs/stream.md, decision 0012):
 * - every position row records the transaction that stored it (`accepted_xid`, PostgreSQL's 64-bit
 *   transaction id as a bigint); rows stored before this migration have none and are not in the feed;
 * - alert records that alert-engine published are kept in `live_alerts` the same way, with the
 *   viewer-independent fields of the V2 alert record, and command status changes in `live_commands`;
 * - `live_clock` maps times to transaction horizons, for the feed's `since`;
 * - `live_streams` holds a lease per open stream, for the per-key limit.
 * Readers take only rows of transactions older than every transaction still running, so a cursor
 * past a row never skips one that commits later (LiveQueries).
 */
export class LiveChannels1765200000000 implements MigrationInterface {
  name = 'LiveChannels1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Nullable, so adding it rewrites nothing; PositionHistory sets it on every new row. A bigint rather
    // than xid8 (which TypeORM cannot describe): a 64-bit transaction id stays below 2^63 in practice.
    await queryRunner.query(`ALTER TABLE "query"."positions" ADD COLUMN "accepted_xid" bigint`);
    await queryRunner.query(
      `CREATE INDEX "positions_accepted_idx" ON "query"."positions" ("accepted_xid", "vehicle_id", "fix_time")
         WHERE "accepted_xid" IS NOT NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE "query"."live_alerts" (
        "record_id" bigint NOT NULL,
        "accepted_xid" bigint NOT NULL DEFAULT pg_current_xact_id()::text::bigint,
        "accepted_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "company_id" integer NOT NULL,
        "vehicle_id" integer NOT NULL,
        "utc_time" TIMESTAMP WITH TIME ZONE NOT NULL,
        "record" jsonb NOT NULL,
        CONSTRAINT "PK_live_alerts" PRIMARY KEY ("record_id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "live_alerts_accepted_idx" ON "query"."live_alerts" ("accepted_xid", "record_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "live_alerts_accepted_at_idx" ON "query"."live_alerts" ("accepted_at")`,
    );
    // Command status changes command-gateway announced, for the stream's `command` events.
    await queryRunner.query(`
      CREATE TABLE "query"."live_commands" (
        "seq" BIGSERIAL NOT NULL,
        "accepted_xid" bigint NOT NULL DEFAULT pg_current_xact_id()::text::bigint,
        "accepted_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "command_id" uuid NOT NULL,
        "status" text NOT NULL,
        "company_id" integer NOT NULL,
        "vehicle_id" integer NOT NULL,
        "record" jsonb NOT NULL,
        CONSTRAINT "PK_live_commands" PRIMARY KEY ("seq"),
        CONSTRAINT "live_commands_change_key" UNIQUE ("command_id", "status")
      )`);
    await queryRunner.query(
      `CREATE INDEX "live_commands_accepted_idx" ON "query"."live_commands" ("accepted_xid", "seq")`,
    );
    await queryRunner.query(
      `CREATE INDEX "live_commands_accepted_at_idx" ON "query"."live_commands" ("accepted_at")`,
    );
    // Where the feed starts for a `since`: the horizon (every older transaction had ended) at a time.
    await queryRunner.query(`
      CREATE TABLE "query"."live_clock" (
        "at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "horizon" bigint NOT NULL,
        CONSTRAINT "PK_live_clock" PRIMARY KEY ("at")
      )`);
    // Open streams, for the per-key limit over all replicas: each replica renews its streams' leases,
    // and a crashed replica's streams stop counting when their leases run out.
    await queryRunner.query(`
      CREATE TABLE "query"."live_streams" (
        "id" uuid NOT NULL,
        "subject" text NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_live_streams" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "live_streams_subject_idx" ON "query"."live_streams" ("subject")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "query"."live_streams"`);
    await queryRunner.query(`DROP TABLE "query"."live_clock"`);
    await queryRunner.query(`DROP TABLE "query"."live_commands"`);
    await queryRunner.query(`DROP TABLE "query"."live_alerts"`);
    await queryRunner.query(`DROP INDEX "query"."positions_accepted_idx"`);
    await queryRunner.query(`ALTER TABLE "query"."positions" DROP COLUMN "accepted_xid"`);
  }
}
