import { DatabaseModule } from '@fleet/platform';
import { Module } from '@nestjs/common';
import { authSchema } from './auth.schema';

/** Identity and tenancy: companies, users, API keys, token issuance. */
@Module({
  imports: [DatabaseModule.forService(authSchema)],
})
export class AuthModule {}
