import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The command types a device carries out; `deviceCommandTypes` of the contracts. */
export type DeviceCommandType = 'doorLock' | 'ignition' | 'locate';

/**
 * A command for a device, from `commands.requested.v1`, waiting to be handed to the device in the
 * answer to one of its reports (docs/osmand.md, "Commands (extension)"). An acknowledged command
 * keeps its row (`acknowledged_at`) until it expires, so that a redelivered request cannot make it
 * pending again; expired rows are pruned.
 */
@Entity({ schema: 'ingest', name: 'device_commands' })
@Index('device_commands_vehicle_idx', ['vehicleId', 'type'])
@Check('CHK_ingest_device_commands_type', `"type" IN ('doorLock', 'ignition', 'locate')`)
// Each type carries exactly its own parameter.
@Check(
  'CHK_ingest_device_commands_parameters',
  `("door_lock" IS NOT NULL) = ("type" = 'doorLock') AND ("ignition_on" IS NOT NULL) = ("type" = 'ignition')`,
)
export class DeviceCommand {
  /** The command's id from command-gateway: what the device echoes as `cmdid`. */
  @PrimaryColumn({ name: 'command_id', type: 'uuid' })
  commandId!: string;

  @Column({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @Column({ type: 'text' })
  type!: DeviceCommandType;

  /** `doorLock`: true locks. Null for the other types. */
  @Column({ name: 'door_lock', type: 'boolean', nullable: true })
  doorLock!: boolean | null;

  /** `ignition`: false immobilises, true releases. Null for the other types. */
  @Column({ name: 'ignition_on', type: 'boolean', nullable: true })
  ignitionOn!: boolean | null;

  /** When command-gateway accepted it: of two commands of one type, the later one counts. */
  @Column({ name: 'requested_at', type: 'timestamptz' })
  requestedAt!: Date;

  /** Never handed out from then on. */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** The last hand-out; null until the first. */
  @Column({ name: 'handed_at', type: 'timestamptz', nullable: true })
  handedAt!: Date | null;

  /** When it was first held back for want of an authenticated device (docs/security.md, F1); null: never. */
  @Column({ name: 'held_at', type: 'timestamptz', nullable: true })
  heldAt!: Date | null;

  @Column({ name: 'hand_count', type: 'integer', default: 0 })
  handCount!: number;

  /** When the device reported its outcome (`cmdstatus`); the command is finished. */
  @Column({ name: 'acknowledged_at', type: 'timestamptz', nullable: true })
  acknowledgedAt!: Date | null;
}
