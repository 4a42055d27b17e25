import { CompanyStatus } from '@fleet/contracts';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

/** A tenant. Companies form a tree of any depth; a company is usable only if it and all its ancestors are active. */
@Entity({ schema: 'auth', name: 'companies' })
@Index('companies_parent_idx', ['parentId'])
export class Company {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'parent_id', type: 'integer', nullable: true })
  parentId!: number | null;

  @ManyToOne(() => Company, { onDelete: 'RESTRICT', nullable: true })
  @JoinColumn({ name: 'parent_id', foreignKeyConstraintName: 'companies_parent_fk' })
  parent?: Company | null;

  @Column({ type: 'text', default: 'active' })
  status!: CompanyStatus;

  /** IANA time-zone name. */
  @Column({ name: 'time_zone', type: 'text', default: 'UTC' })
  timeZone!: string;

  /** .NET-style display pattern of date-times for this company's users. */
  @Column({ name: 'date_time_format', type: 'text', default: 'dd/MM/yyyy HH:mm:ss' })
  dateTimeFormat!: string;

  @Column({ name: 'show_commands', type: 'boolean', default: true })
  showCommands!: boolean;

  /** Incremented on every change; snapshots carry it so projections apply them in order. */
  @Column({ type: 'integer', default: 1 })
  version!: number;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
