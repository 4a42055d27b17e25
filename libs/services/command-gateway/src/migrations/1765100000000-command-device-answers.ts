import { MigrationInterface, QueryRunner } from 'typeorm';

/** The device's own answer to a command, from trackers whose protocol carries one (issue 29). */
export class CommandDeviceAnswers1765100000000 implements MigrationInterface {
  name = 'CommandDeviceAnswers1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "commands"."commands" ADD "device_answer" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "commands"."commands" DROP COLUMN "device_answer"`);
  }
}
