import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { AUTH_SCHEMA } from '../auth.schema.constants';
import { ApiKey } from './api-key.entity';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-secret';

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
export class ApiKeysService {
  constructor(@InjectRepository(ApiKey, AUTH_SCHEMA) private readonly keys: Repository<ApiKey>) {}

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

  /** Blocks new tokens for the key at once; tokens already issued stay valid until they expire. */
  async delete(id: number): Promise<boolean> {
    const result = await this.keys.update({ id, deletedAt: IsNull() }, { deletedAt: new Date() });
    return (result.affected ?? 0) > 0;
  }

  /** Deletes, as delete() does, every active key of the company carrying this label; says how many. */
  async deleteByLabel(companyId: number, label: string): Promise<number> {
    const result = await this.keys.update(
      { companyId, label, deletedAt: IsNull() },
      { deletedAt: new Date() },
    );
    return result.affected ?? 0;
  }

  async findActive(key: string): Promise<ApiKey | null> {
    if (!isWellFormedApiKey(key)) return null;
    return this.keys.findOne({ where: { keyHash: hashApiKey(key), deletedAt: IsNull() } });
  }
}
