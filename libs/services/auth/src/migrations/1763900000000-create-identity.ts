import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIdentity1763900000000 implements MigrationInterface {
  name = 'CreateIdentity1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "auth"."companies" (
        "id" SERIAL NOT NULL,
        "name" text NOT NULL,
        "parent_id" integer,
        "status" text NOT NULL DEFAULT 'active',
        "time_zone" text NOT NULL DEFAULT 'UTC',
        "date_time_format" text NOT NULL DEFAULT 'dd/MM/yyyy HH:mm:ss',
        "show_commands" boolean NOT NULL DEFAULT true,
        "version" integer NOT NULL DEFAULT 1,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_companies" PRIMARY KEY ("id"),
        CONSTRAINT "companies_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "auth"."companies"("id") ON DELETE RESTRICT
      )`);
    await queryRunner.query(`CREATE INDEX "companies_parent_idx" ON "auth"."companies" ("parent_id")`);

    await queryRunner.query(`
      CREATE TABLE "auth"."api_keys" (
        "id" SERIAL NOT NULL,
        "company_id" integer NOT NULL,
        "key_hash" text NOT NULL,
        "key_prefix" text NOT NULL,
        "label" text,
        "vehicle_ids" integer array,
        "actions" text array,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "deleted_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_api_keys" PRIMARY KEY ("id"),
        CONSTRAINT "api_keys_company_fk" FOREIGN KEY ("company_id") REFERENCES "auth"."companies"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "auth"."api_keys" ("key_hash")`);
    await queryRunner.query(`CREATE INDEX "api_keys_company_idx" ON "auth"."api_keys" ("company_id")`);

    await queryRunner.query(`
      CREATE TABLE "auth"."users" (
        "id" SERIAL NOT NULL,
        "user_name" text NOT NULL,
        "password_hash" text NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_users" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "users_user_name_key" ON "auth"."users" ("user_name")`);

    await queryRunner.query(`
      CREATE TABLE "auth"."user_companies" (
        "user_id" integer NOT NULL,
        "company_id" integer NOT NULL,
        "position" integer NOT NULL,
        CONSTRAINT "PK_user_companies" PRIMARY KEY ("user_id", "company_id"),
        CONSTRAINT "user_companies_user_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE CASCADE,
        CONSTRAINT "user_companies_company_fk" FOREIGN KEY ("company_id") REFERENCES "auth"."companies"("id") ON DELETE CASCADE
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "auth"."user_companies"`);
    await queryRunner.query(`DROP TABLE "auth"."users"`);
    await queryRunner.query(`DROP TABLE "auth"."api_keys"`);
    await queryRunner.query(`DROP TABLE "auth"."companies"`);
  }
}
