import { EnvReader } from '@fleet/platform';
import { TestFixtures } from '@fleet/testing';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { AuthModule } from '../auth.module';
import { CompaniesService } from '../companies/companies.service';
import { readAuthServiceConfig } from '../tokens/auth-service.config';

/** auth's part of a test context: the module, and companies and API keys made by its own services. */
export const authFixtures: TestFixtures = {
  async newCompany(app, input) {
    return (await app.get(CompaniesService).create(input)).id;
  },
  async newApiKey(app, companyId, options) {
    return (await app.get(ApiKeysService).create({ companyId, ...options })).key;
  },
};

export const authModules = (env: EnvReader) => [AuthModule.forRoot(readAuthServiceConfig(env))];
