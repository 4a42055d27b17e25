import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AUTH_SCHEMA } from '../auth.schema.constants';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './password-hash';
import { User, UserCompany } from './user.entity';

@Injectable()
export class UsersService {
  constructor(@InjectDataSource(AUTH_SCHEMA) private readonly dataSource: DataSource) {}

  /** `companyIds` in order: the first is the company the user's tokens are pinned to. */
  async create(userName: string, password: string, companyIds: number[]): Promise<{ id: number }> {
    if (companyIds.length === 0) throw new Error('a user needs at least one company');
    const passwordHash = await hashPassword(password);
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

  /** The user and their first company if the credentials are right; undefined otherwise. */
  async authenticate(
    userName: string,
    password: string,
  ): Promise<{ userId: number; companyId: number } | undefined> {
    const user = await this.dataSource
      .getRepository(User)
      .findOne({ where: { userName: userName.toLowerCase() } });
    const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
    if (!user || !valid) return undefined;
    const first = await this.dataSource
      .getRepository(UserCompany)
      .findOne({ where: { userId: user.id }, order: { position: 'ASC' } });
    return first ? { userId: user.id, companyId: first.companyId } : undefined;
  }
}
