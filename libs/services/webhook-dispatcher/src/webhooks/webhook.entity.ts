import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A webhook of a company: where alert events go. Alert-scoped webhooks receive the configurations
 * they link (`webhook_alerts`); global ones every deliverable alert of the company and the companies
 * below it (docs/webhooks.md). Deleting one keeps the row (its delivery log names it) and makes it
 * invisible and silent.
 */
@Entity({ schema: 'webhooks', name: 'webhooks' })
// Partial (live webhooks of a company), written by the migration.
@Index('webhooks_company_idx', { synchronize: false })
export class Webhook {
  /** Taken from its sequence before the insert: the secret's encryption is bound to it. */
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ type: 'text' })
  url!: string;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive!: boolean;

  @Column({ name: 'is_global', type: 'boolean', default: false })
  isGlobal!: boolean;

  /** The secret, AES-256-GCM encrypted with WEBHOOK_SECRET_KEY (secret-box.ts); never sent again. */
  @Column({ name: 'secret_ciphertext', type: 'bytea' })
  secretCiphertext!: Buffer;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}

/** A configuration linked to an alert-scoped webhook. */
@Entity({ schema: 'webhooks', name: 'webhook_alerts' })
@Index('webhook_alerts_configuration_idx', ['configurationId'])
export class WebhookAlertLink {
  @PrimaryColumn({ name: 'webhook_id', type: 'integer' })
  webhookId!: number;

  @ManyToOne(() => Webhook, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_id', foreignKeyConstraintName: 'FK_webhooks_webhook_alerts_webhook' })
  webhook?: Webhook;

  @PrimaryColumn({ name: 'configuration_id', type: 'integer' })
  configurationId!: number;

  @Column({ name: 'linked_at', type: 'timestamptz', default: () => 'now()' })
  linkedAt!: Date;
}
