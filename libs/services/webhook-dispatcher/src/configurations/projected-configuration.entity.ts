import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * webhook-dispatcher's projection of alert-engine's configurations (`alerts.configuration-snapshots.v1`):
 * what linking a configuration to a webhook checks (its company, its type, that it exists).
 */
@Entity({ schema: 'webhooks', name: 'alert_configurations' })
export class ProjectedConfiguration {
  @PrimaryColumn({ name: 'configuration_id', type: 'integer' })
  configurationId!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'alert_type_id', type: 'smallint' })
  alertTypeId!: number;

  @Column({ name: 'is_active', type: 'boolean' })
  isActive!: boolean;

  /** Kept as a tombstone: an older snapshot delivered again cannot bring it back. */
  @Column({ type: 'boolean' })
  deleted!: boolean;

  @Column({ type: 'bigint' })
  version!: string;
}
