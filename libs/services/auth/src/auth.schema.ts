import { ServiceSchema } from '@fleet/platform';
import { ApiKey } from './api-keys/api-key.entity';
import { Company } from './companies/company.entity';
import { CreateIdentity1763900000000 } from './migrations/1763900000000-create-identity';
import { User, UserCompany } from './users/user.entity';

import { AUTH_SCHEMA } from './auth.schema.constants';

export { AUTH_SCHEMA };

/** Tables owned by auth: companies, users, API keys, and the outbox of company snapshots. */
export const authSchema: ServiceSchema = {
  schema: AUTH_SCHEMA,
  entities: [Company, ApiKey, User, UserCompany],
  migrations: [CreateIdentity1763900000000],
  outbox: true,
};
