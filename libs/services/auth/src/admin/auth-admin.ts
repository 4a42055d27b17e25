import { EventPublisher, Outbox } from '@fleet/platform';
import { DataSource } from 'typeorm';
import { ApiKey } from '../api-keys/api-key.entity';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { AUTH_SCHEMA } from '../auth.schema.constants';
import { CompaniesService } from '../companies/companies.service';
import { Company } from '../companies/company.entity';
import { UsersService } from '../users/users.service';

/** The admin CLI only writes: events go to the outbox, and the running auth service publishes them. */
class NoPublisher extends EventPublisher {
  async publish(): Promise<void> {
    throw new Error('the admin CLI does not publish; the running auth service relays its outbox');
  }
}

/** auth's operations for operators, on a DataSource of the auth schema (no Nest application needed). */
export function createAuthAdmin(dataSource: DataSource) {
  const companies = new CompaniesService(dataSource, new Outbox(dataSource, AUTH_SCHEMA, new NoPublisher()));
  return {
    companies,
    apiKeys: new ApiKeysService(dataSource.getRepository(ApiKey)),
    users: new UsersService(dataSource),
    listCompanies: () => dataSource.getRepository(Company).find({ order: { id: 'ASC' } }),
    listApiKeys: (companyId: number) =>
      dataSource.getRepository(ApiKey).find({
        where: { companyId },
        order: { id: 'ASC' },
        select: ['id', 'companyId', 'keyPrefix', 'label', 'vehicleIds', 'actions', 'createdAt', 'deletedAt'],
      }),
  };
}
