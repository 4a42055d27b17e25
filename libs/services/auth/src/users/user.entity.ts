import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { Company } from '../companies/company.entity';

/** A person who signs in with user name and password (V1 token route). */
@Entity({ schema: 'auth', name: 'users' })
export class User {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  /** Stored lower-cased: user names are case-insensitive. */
  @Index('users_user_name_key', { unique: true })
  @Column({ name: 'user_name', type: 'text' })
  userName!: string;

  /** `scrypt$N$r$p$<salt>$<hash>`, salt and hash base64url. */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

/** The companies of a user, in order: a user token is pinned to the first. */
@Entity({ schema: 'auth', name: 'user_companies' })
export class UserCompany {
  @PrimaryColumn({ name: 'user_id', type: 'integer' })
  userId!: number;

  @PrimaryColumn({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ type: 'integer' })
  position!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_companies_user_fk' })
  user?: User;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'user_companies_company_fk' })
  company?: Company;
}
