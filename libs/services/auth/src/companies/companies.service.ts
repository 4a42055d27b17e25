import { CompanySnapshotV1, CompanyStatus, Topics } from '@fleet/contracts';
import { InjectOutbox, Outbox } from '@fleet/platform';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { AUTH_SCHEMA } from '../auth.schema.constants';
import { CompanyQueries } from './companies.queries';
import { Company } from './company.entity';
import { AuthException, AuthExceptionCode } from '../auth.exception';

export interface NewCompany {
  name: string;
  parentId?: number | null;
  status?: CompanyStatus;
  timeZone?: string;
  dateTimeFormat?: string;
  showCommands?: boolean;
}

export type CompanyInTree = Company & { level: number };

export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

function snapshotOf(company: Company): CompanySnapshotV1 {
  return {
    companyId: company.id,
    name: company.name,
    parentId: company.parentId,
    status: company.status,
    timeZone: company.timeZone,
    dateTimeFormat: company.dateTimeFormat,
    showCommands: company.showCommands,
    version: company.version,
    updatedAt: company.updatedAt.toISOString(),
  };
}

/**
 * Companies and their hierarchy. Every change is stored and its snapshot queued in the outbox in one
 * transaction, so every service's projection learns it (within about a second) or never misses it.
 */
@Injectable()
export class CompaniesService implements OnApplicationBootstrap {
  constructor(
    @InjectDataSource(AUTH_SCHEMA) private readonly dataSource: DataSource,
    @InjectOutbox(AUTH_SCHEMA) private readonly outbox: Outbox,
    private readonly queries: CompanyQueries,
  ) {}

  async create(input: NewCompany): Promise<Company> {
    if (input.timeZone !== undefined && !isKnownTimeZone(input.timeZone)) {
      throw new AuthException(
        AuthExceptionCode.InvalidCompany,
        `timeZone: unknown time zone "${input.timeZone}"`,
      );
    }
    return this.dataSource.transaction(async (manager) => {
      if (input.parentId != null && !(await manager.existsBy(Company, { id: input.parentId }))) {
        throw new AuthException(
          AuthExceptionCode.InvalidCompany,
          `parentId: company ${input.parentId} does not exist`,
        );
      }
      const company = await manager.save(
        manager.create(Company, {
          name: input.name,
          parentId: input.parentId ?? null,
          status: input.status ?? 'active',
          timeZone: input.timeZone,
          dateTimeFormat: input.dateTimeFormat,
          showCommands: input.showCommands,
        }),
      );
      const stored = await manager.findOneByOrFail(Company, { id: company.id });
      await this.publish(manager, [stored]);
      return stored;
    });
  }

  async setStatus(id: number, status: CompanyStatus): Promise<Company> {
    return this.dataSource.transaction(async (manager) => {
      const company = await manager.findOne(Company, { where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!company) {
        throw new AuthException(AuthExceptionCode.CompanyNotFound, `Company ${id} does not exist.`);
      }
      company.status = status;
      company.version += 1;
      company.updatedAt = new Date();
      const saved = await manager.save(company);
      await this.publish(manager, [saved]);
      return saved;
    });
  }

  findById(id: number): Promise<Company | null> {
    return this.dataSource.getRepository(Company).findOneBy({ id });
  }

  /**
   * The company of this name directly under `parentId` (null: a top company). Names are not unique;
   * of several, the oldest, so that repeated look-ups agree.
   */
  findByName(name: string, parentId: number | null): Promise<Company | null> {
    return this.dataSource.getRepository(Company).findOne({
      where: { name, parentId: parentId ?? IsNull() },
      order: { id: 'ASC' },
    });
  }

  /** The company or one above it that is not active, if any. */
  async blockingAncestor(id: number): Promise<Company | undefined> {
    const blockingId = await this.queries.blockingAncestorId(id);
    return blockingId !== undefined ? ((await this.findById(blockingId)) ?? undefined) : undefined;
  }

  /** The company and everything below it, with each one's depth under it. */
  async subtree(rootId: number): Promise<CompanyInTree[]> {
    const rows = await this.queries.subtree(rootId);
    const companies = await this.dataSource
      .getRepository(Company)
      .findBy({ id: In(rows.map((row) => row.id)) });
    const levelOf = new Map(rows.map((row) => [row.id, row.level]));
    return companies.map((company) => Object.assign(company, { level: levelOf.get(company.id)! }));
  }

  /**
   * Re-announces every company at start. Kafka's compacted topic does not need it, but the embedded
   * mode's in-memory broker starts empty, and it heals any projection that missed an update.
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await this.publish(manager, await manager.find(Company, { order: { id: 'ASC' } }));
    });
  }

  private publish(manager: EntityManager, companies: Company[]): Promise<void> {
    return this.outbox.enqueue(
      manager,
      Topics.companySnapshots,
      companies.map((company) => ({ key: String(company.id), payload: snapshotOf(company) })),
    );
  }
}
