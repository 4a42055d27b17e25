import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AUTH_SCHEMA } from '../auth.schema.constants';
import { DUMMY_PASSWORD_HASH, PasswordHasher } from './password-hash';
import { User, UserCompany } from './user.entity';

@Injectable()
export class UsersService {
  constructor(
    @InjectDataSource(AUTH_SCHEMA) private readonly dataSource: DataSource,
    private readonly hasher: PasswordHasher,
  ) {}

  /** `companyIds` in order: the first is the company the user's tokens are pinned to. */
  async create(userName: string, password: string, companyIds: number[]): Promise<{ id: number }> {
    if (companyIds.length === 0) throw new Error('a user needs at least one company');
    const passwordHash = await this.hasher.hash(password);
    return this.dataSource.transaction(async (manager) => {
      const user = await manager.save(
        manager.create(User, { userName: userName.toLowerCase(), passwordHash }),
      );
      await manager.save(
        companyIds.map((companyId, position) =>
          manager.create(UserCompany, { userId: user.id, companyId, position }),
        ),
      );
      return { id: user.id };
    });
  }

  /** The user of this name (any case) and their companies in order; undefined if there is none. */
  async find(userName: string): Promise<{ id: number; userName: string; companyIds: number[] } | undefined> {
    const user = await this.dataSource
      .getRepository(User)
      .findOne({ where: { userName: userName.toLowerCase() } });
    if (!user) return undefined;
    const companies = await this.dataSource
      .getRepository(UserCompany)
      .find({ where: { userId: user.id }, order: { position: 'ASC' } });
    return { id: user.id, userName: user.userName, companyIds: companies.map((c) => c.companyId) };
  }

  /** Replaces the user's password; false if there is no such user. */
  async setPassword(userId: number, password: string): Promise<boolean> {
    const passwordHash = await this.hasher.hash(password);
    const result = await this.dataSource.getRepository(User).update({ id: userId }, { passwordHash });
    return (result.affected ?? 0) > 0;
  }

  /** The user and their first company if the credentials are right; undefined otherwise. */
  async authenticate(
    userName: string,
    password: string,
  ): Promise<{ userId: number; companyId: number } | undefined> {
    const user = await this.dataSource
      .getRepository(User)
      .findOne({ where: { userName: userName.toLowerCase() } });
    const valid = await this.hasher.verify(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
    if (!user || !valid) return undefined;
    const first = await this.dataSource
      .getRepository(UserCompany)
      .findOne({ where: { userId: user.id }, order: { position: 'ASC' } });
    return first ? { userId: user.id, companyId: first.companyId } : undefined;
  }
}
