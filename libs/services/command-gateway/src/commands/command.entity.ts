import { commandStatuses, CommandStatus, commandTypes, CommandType } from '@fleet/contracts';
import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

export { commandStatuses, CommandStatus };

const inList = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');

/**
 * A command accepted for a vehicle, with its parameters (only its type's) and its status. The row is
 * the truth a client reads; `commands.requested.v1` announces it (outbox) and `commands.results.v1`
 * moves it on.
 */
@Entity({ schema: 'commands', name: 'commands' })
@Index('commands_vehicle_idx', ['vehicleId', 'createdAt'])
// Partial (commands still waiting, by expiry: the lifecycle's open statuses), written by the migration.
@Index('commands_waiting_idx', { synchronize: false })
// Partial (finished commands, by when they finished: the retention sweep's), written by the migration.
@Index('commands_finished_idx', { synchronize: false })
@Check('commands_type_check', `"type" IN (${inList(commandTypes)})`)
@Check('commands_status_check', `"status" IN (${inList(commandStatuses)})`)
export class Command {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** The company of the token that sent it. */
  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @Column({ type: 'text' })
  type!: CommandType;

  /** doorLock: true locks. */
  @Column({ type: 'boolean', nullable: true })
  lock!: boolean | null;

  /** ignition: false immobilises the engine. */
  @Column({ name: 'engine_on', type: 'boolean', nullable: true })
  engineOn!: boolean | null;

  /** odometer: the reading asked for, in km. */
  @Column({ name: 'odometer_km', type: 'double precision', nullable: true })
  odometerKm!: number | null;

  /** name: the new vehicle name, trimmed. */
  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ type: 'text', default: 'queued' })
  status!: CommandStatus;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** First time the device was handed it. */
  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;

  /** Latest time it was handed (again: devices get a command again until they answer). */
  @Column({ name: 'last_sent_at', type: 'timestamptz', nullable: true })
  lastSentAt!: Date | null;

  /** When it became acknowledged, failed, expired or superseded. */
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  /** Why it failed or was superseded, in words. */
  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  /** The device's own answer (Teltonika Codec 12, GT06), when its protocol carries one. */
  @Column({ name: 'device_answer', type: 'text', nullable: true })
  deviceAnswer!: string | null;
}

/**
 * An `Idempotency-Key` a company used on a sending route, with the command it produced and what the
 * request asked, so that a retry within 24 hours gets that command and a different request under
 * the same key is refused.
 */
@Entity({ schema: 'commands', name: 'idempotency_keys' })
@Index('idempotency_keys_created_idx', ['createdAt'])
export class IdempotencyKey {
  @PrimaryColumn({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @PrimaryColumn({ type: 'text' })
  key!: string;

  @Column({ name: 'command_id', type: 'uuid' })
  commandId!: string;

  /** The request in a canonical form (type, vehicle, parameters). */
  @Column({ type: 'text' })
  request!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
