import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lets most last-position updates be HOT (heap-only: no new index entries, dead versions pruned in
 * the page) by moving the nearest routes' GiST index off the live coordinates and onto an anchor
 * point, which the projection moves only when the vehicle has gone more than
 * NEAREST_ANCHOR_SLACK_DEGREES from it (positions/nearest-anchor.ts).
 *
 * With the index on point(lng, lat), every position changed an indexed column, so no update could
 * be HOT and the table grew by dead versions faster than autovacuum came (docs/performance.md). The fill factor leaves each page room for the new versions.
 */
export class AnchoredNearestIndex1764200000000 implements MigrationInterface {
  name = 'AnchoredNearestIndex1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "query"."last_positions"
        ADD "anchor_lat" double precision, ADD "anchor_lng" double precision`);
    await queryRunner.query(`UPDATE "query"."last_positions" SET "anchor_lat" = "lat", "anchor_lng" = "lng"`);
    await queryRunner.query(`
      ALTER TABLE "query"."last_positions"
        ALTER "anchor_lat" SET NOT NULL, ALTER "anchor_lng" SET NOT NULL`);
    await queryRunner.query(`DROP INDEX "query"."last_positions_point_idx"`);
    await queryRunner.query(
      `CREATE INDEX "last_positions_anchor_idx" ON "query"."last_positions" USING gist (point("anchor_lng", "anchor_lat"))`,
    );
    await queryRunner.query(`ALTER TABLE "query"."last_positions" SET (fillfactor = 50)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "query"."last_positions" RESET (fillfactor)`);
    await queryRunner.query(`DROP INDEX "query"."last_positions_anchor_idx"`);
    await queryRunner.query(
      `CREATE INDEX "last_positions_point_idx" ON "query"."last_positions" USING gist (point("lng", "lat"))`,
    );
    await queryRunner.query(`ALTER TABLE "query"."last_positions" DROP "anchor_lng", DROP "anchor_lat"`);
  }
}
