import { Outbox } from '@fleet/platform';
import { DataSource } from 'typeorm';
import { ApiKey } from '../api-keys/api-key.entity';
import { ApiKeyQueries } from '../api-keys/api-keys.queries';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { AUTH_SCHEMA } from '../auth.schema.constants';
import { CompanyQueries } from '../companies/companies.queries';
import { CompaniesService } from '../companies/companies.service';
import { Company } from '../companies/company.entity';
import { PasswordHasher } from '../users/password-hash';
import { UsersService } from '../users/users.service';
import { DEFAULT_TOKEN_LIFETIME_SECONDS } from '../tokens/auth-service.config';

/** auth's operations for operators, on a DataSource of the auth schema (no Nest application needed). */
export function createAuthAdmin(dataSource: DataSource) {
  const companies = new CompaniesService(
    dataSource,
    Outbox.writeOnly(dataSource, AUTH_SCHEMA),
    new CompanyQueries(dataSource),
  );
  return {
    companies,
    apiKeys: new ApiKeysService(
      dataSource.getRepository(ApiKey),
      dataSource,
      Outbox.writeOnly(dataSource, AUTH_SCHEMA),
      { tokenLifetimeSeconds: DEFAULT_TOKEN_LIFETIME_SECONDS },
      new ApiKeyQueries(),
    ),
    users: new UsersService(dataSource, new PasswordHasher()),
    listCompanies: () => dataSource.getRepository(Company).find({ order: { id: 'ASC' } }),
    listApiKeys: (companyId: number) =>
      dataSource.getRepository(ApiKey).find({
        where: { companyId },
        order: { id: 'ASC' },
        select: ['id', 'companyId', 'keyPrefix', 'label', 'vehicleIds', 'actions', 'createdAt', 'deletedAt'],
      }),
  };
}
