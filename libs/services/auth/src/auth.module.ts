import { DatabaseModule } from '@fleet/platform';
import { DynamicModule, Module } from '@nestjs/common';
import { ApiKeyQueries } from './api-keys/api-keys.queries';
import { ApiKeysService } from './api-keys/api-keys.service';
import { authSchema } from './auth.schema';
import { CompaniesController } from './companies/companies.controller';
import { CompanyQueries } from './companies/companies.queries';
import { CompaniesService } from './companies/companies.service';
import { AUTH_SERVICE_CONFIG, AuthServiceConfig } from './tokens/auth-service.config';
import { TokenController } from './tokens/token.controller';
import { CredentialThrottle } from './tokens/credential-throttle';
import { TokenService } from './tokens/token.service';
import { PasswordHasher } from './users/password-hash';
import { UsersService } from './users/users.service';

/** Identity and tenancy: companies, users, API keys, token issuance. */
@Module({})
export class AuthModule {
  static forRoot(config: AuthServiceConfig): DynamicModule {
    return {
      module: AuthModule,
      imports: [DatabaseModule.forService(authSchema)],
      controllers: [TokenController, CompaniesController],
      providers: [
        { provide: AUTH_SERVICE_CONFIG, useValue: config },
        ApiKeyQueries,
        ApiKeysService,
        PasswordHasher,
        UsersService,
        CompanyQueries,
        CompaniesService,
        CredentialThrottle,
        TokenService,
      ],
      exports: [ApiKeysService, UsersService, CompaniesService],
    };
  }
}
