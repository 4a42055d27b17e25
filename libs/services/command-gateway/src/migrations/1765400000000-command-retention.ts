import { MigrationInterface, QueryRunner } from 'typeorm';

/** Finished commands by when they finished: what the command log's retention sweep deletes by. */
export class CommandRetention1765400000000 implements MigrationInterface {
  name = 'CommandRetention1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "commands_finished_idx" ON "commands"."commands" ("finished_at") WHERE "finished_at" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "commands"."commands_finished_idx"`);
  }
}
