import type { AlertSettings } from '@fleet/contracts';
import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';

/**
 * An alert configuration: a rule of one catalog type, owned by a company, covering the vehicles it
 * lists, the vehicles carrying one of its tags, or (both lists empty) every vehicle of the company.
 * Deleting one keeps the row (its records still name it) and stops it from firing.
 */
@Entity({ schema: 'alerts', name: 'configurations' })
@Index('configurations_company_idx', ['companyId', 'id'])
export class AlertConfiguration {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'alert_type_id', type: 'smallint' })
  alertTypeId!: number;

  @Column({ name: 'vehicle_ids', type: 'integer', array: true, default: () => "'{}'" })
  vehicleIds!: number[];

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  tags!: string[];

  /** The type's settings with its defaults filled in (docs/alerts.md). */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings!: AlertSettings;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;

  /** Raised by every save: the version of its snapshot on `alerts.configuration-snapshots.v1`. */
  @VersionColumn({ type: 'integer', default: 1 })
  version!: number;
}

/**
 * A counter per company, raised in the same transaction as every change to its configurations or
 * geofences: an engine replica compares it with the rules it holds and reloads the company's when it
 * moved, so every replica evaluates what was committed without reading the tables per position.
 */
@Entity({ schema: 'alerts', name: 'rule_versions' })
export class RuleVersion {
  @Column({ name: 'company_id', type: 'integer', primary: true })
  companyId!: number;

  @Column({ type: 'bigint' })
  version!: string;
}
