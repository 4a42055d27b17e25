import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Company } from '../companies/company.entity';

/**
 * A company's API key. Only a SHA-256 of the key is stored: keys are 32 random bytes, so a fast hash
 * cannot be brute-forced and lookups stay O(1). The plaintext is shown once, at creation.
 */
@Entity({ schema: 'auth', name: 'api_keys' })
@Index('api_keys_company_idx', ['companyId'])
export class ApiKey {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'api_keys_company_fk' })
  company?: Company;

  @Index('api_keys_key_hash_key', { unique: true })
  @Column({ name: 'key_hash', type: 'text' })
  keyHash!: string;

  /** First characters of the key, so operators can tell keys apart without the secret. */
  @Column({ name: 'key_prefix', type: 'text' })
  keyPrefix!: string;

  @Column({ type: 'text', nullable: true })
  label!: string | null;

  /** Vehicles the key may see; null means all vehicles of its company. */
  @Column({ name: 'vehicle_ids', type: 'integer', array: true, nullable: true })
  vehicleIds!: number[] | null;

  /** Actions the key may perform; null means all. */
  @Column({ type: 'text', array: true, nullable: true })
  actions!: string[] | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  /** Set when deleted: no new tokens from then on; tokens already issued run out on their own. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}
