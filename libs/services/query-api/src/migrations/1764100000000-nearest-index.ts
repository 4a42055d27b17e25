import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A GiST index on last positions as planar points: the nearest routes order by `point <-> point`
 * (exactly the spec's planar-degree distance), which this index serves nearest-first without sorting
 * a whole fleet. Declared `synchronize: false` on the entity: TypeORM cannot express it.
 */
export class NearestIndex1764100000000 implements MigrationInterface {
  name = 'NearestIndex1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "last_positions_point_idx" ON "query"."last_positions" USING gist (point("lng", "lat"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "query"."last_positions_point_idx"`);
  }
}
