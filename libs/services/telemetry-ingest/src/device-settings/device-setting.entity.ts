import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What an operator set for a vehicle's tracker (docs/device-settings.md): its command profile (which
 * text each command sends, how its outputs are wired), the networks it may connect from, the OsmAnd
 * device secret and the clock offset of its fix times. A vehicle without a row gets its protocol's
 * default profile, connects from any allowed network, needs no secret and has no offset.
 */
@Entity({ schema: 'ingest', name: 'device_settings' })
export class DeviceSetting {
  @PrimaryColumn({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  /** A name of `commandProfiles`; null for the protocol's default. */
  @Column({ name: 'command_profile', type: 'text', nullable: true })
  commandProfile!: string | null;

  /** CIDR ranges the tracker must report and log in from (its fleet's private APN); null for any. */
  @Column({ name: 'allowed_networks', type: 'text', array: true, nullable: true })
  allowedNetworks!: string[] | null;

  /**
   * SHA-256 (hex) of the secret every OsmAnd report of the vehicle must carry; null when none is
   * required. The secret itself is shown once and never stored.
   */
  @Column({ name: 'secret_hash', type: 'text', nullable: true })
  secretHash!: string | null;

  /** Seconds added to the device's fix times before any check (a device reporting local time as UTC). */
  @Column({ name: 'clock_offset_seconds', type: 'integer', default: 0 })
  clockOffsetSeconds!: number;

  /**
   * The operator's explicit opt-out: the vehicle's commands go to any session that reports a plausible
   * fix, without a secret, pinning or a continued track (docs/security.md, F1). Shown as a warning.
   */
  @Column({ name: 'insecure_commands', type: 'boolean', default: false })
  insecureCommands!: boolean;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
