import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A command query-api has applied (or refused), by id: a redelivered `commands.requested.v1` event
 * finds its id here and changes nothing. Written in the transaction of the change and of its result;
 * kept for APPLIED_COMMAND_RETENTION_DAYS, beyond the topic's retention.
 */
@Entity({ schema: 'query', name: 'applied_commands' })
@Index('applied_commands_applied_at_idx', ['appliedAt'])
export class AppliedCommand {
  @PrimaryColumn({ name: 'command_id', type: 'uuid' })
  commandId!: string;

  @Column({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @Column({ type: 'text' })
  type!: string;

  @Column({ name: 'applied_at', type: 'timestamptz', default: () => 'now()' })
  appliedAt!: Date;
}
