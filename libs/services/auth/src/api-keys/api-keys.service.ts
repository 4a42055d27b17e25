import { ApiKeyRevokedV1, Topics } from '@fleet/contracts';
import { InjectOutbox, Outbox } from '@fleet/platform';
import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull, Repository } from 'typeorm';
import { AUTH_SERVICE_CONFIG, AuthServiceConfig } from '../tokens/auth-service.config';
import { AUTH_SCHEMA } from '../auth.schema.constants';
import { ApiKey } from './api-key.entity';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-secret';
import { ApiKeyQueries, DeletedKeyRow } from './api-keys.queries';

export interface NewApiKey {
  companyId: number;
  label?: string;
  vehicleIds?: number[];
  actions?: string[];
}

/** The key in plain text exists only in this result, once. */
export interface CreatedApiKey {
  id: number;
  companyId: number;
  key: string;
  keyPrefix: string;
}

@Injectable()
export class ApiKeysService implements OnApplicationBootstrap {
  constructor(
    @InjectRepository(ApiKey, AUTH_SCHEMA) private readonly keys: Repository<ApiKey>,
    @InjectDataSource(AUTH_SCHEMA) private readonly dataSource: DataSource,
    @InjectOutbox(AUTH_SCHEMA) private readonly outbox: Outbox,
    @Inject(AUTH_SERVICE_CONFIG) private readonly config: Pick<AuthServiceConfig, 'tokenLifetimeSeconds'>,
    private readonly queries: ApiKeyQueries,
  ) {}

  async create(input: NewApiKey): Promise<CreatedApiKey> {
    const key = generateApiKey();
    const saved = await this.keys.save(
      this.keys.create({
        companyId: input.companyId,
        keyHash: hashApiKey(key),
        keyPrefix: key.slice(0, 6),
        label: input.label ?? null,
        vehicleIds: input.vehicleIds ?? null,
        actions: input.actions ?? null,
      }),
    );
    return { id: saved.id, companyId: saved.companyId, key, keyPrefix: saved.keyPrefix };
  }

  /**
   * Blocks new tokens for the key at once; tokens already issued stay valid until they expire, except
   * on the live stream, which the revocation announced here ends (docs/stream.md).
   */
  async delete(id: number): Promise<boolean> {
    return (await this.deleteAndAnnounce((manager) => this.queries.deleteById(manager, id))) > 0;
  }

  /** Deletes, as delete() does, every active key of the company carrying this label; says how many. */
  async deleteByLabel(companyId: number, label: string): Promise<number> {
    return this.deleteAndAnnounce((manager) => this.queries.deleteByLabel(manager, companyId, label));
  }

  /**
   * Announces again the keys deleted within one token lifetime (a token of an older one has expired):
   * the compacted topic then holds them even if an announcement was lost, and the embedded mode's
   * in-memory broker, which starts empty, learns them.
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const rows = await this.queries.deletedWithin(manager, this.config.tokenLifetimeSeconds);
      await this.announce(manager, rows);
    });
  }

  /** Deletes keys with `remove` and announces them, in one transaction; says how many. */
  private deleteAndAnnounce(remove: (manager: EntityManager) => Promise<DeletedKeyRow[]>): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await remove(manager);
      await this.announce(manager, rows);
      return rows.length;
    });
  }

  private announce(manager: EntityManager, rows: readonly DeletedKeyRow[]): Promise<void> {
    return this.outbox.enqueue(
      manager,
      Topics.apiKeyRevocations,
      rows.map((row) => {
        const payload: ApiKeyRevokedV1 = {
          keyId: row.id,
          companyId: row.company_id,
          revokedAt: new Date(row.deleted_at).toISOString(),
        };
        return { key: String(row.id), payload };
      }),
    );
  }

  async findActive(key: string): Promise<ApiKey | null> {
    if (!isWellFormedApiKey(key)) return null;
    return this.keys.findOne({ where: { keyHash: hashApiKey(key), deletedAt: IsNull() } });
  }
}
