import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What an operator set for a vehicle's tracker (docs/trackers.md): its command profile (which text each
 * command sends, how its outputs are wired) and the networks it may connect from. A vehicle without a
 * row gets its protocol's default profile and connects from any allowed network.
 */
@Entity({ schema: 'ingest', name: 'device_settings' })
export class DeviceSetting {
  @PrimaryColumn({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  /** A name of `commandProfiles`; null for the protocol's default. */
  @Column({ name: 'command_profile', type: 'text', nullable: true })
  commandProfile!: string | null;

  /** CIDR ranges the tracker's TCP sessions must come from (its fleet's private APN); null for any. */
  @Column({ name: 'allowed_networks', type: 'text', array: true, nullable: true })
  allowedNetworks!: string[] | null;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
