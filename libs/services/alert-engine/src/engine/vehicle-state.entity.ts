import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What the rules remember of one vehicle between positions (docs/alerts.md): the newest fix
 * evaluated, the readings edge rules compare against, the geofences it is inside and each
 * configuration's episode. Written in the transaction that stores the records it produced, so a
 * redelivered batch or a restart neither loses nor repeats an alert.
 */
@Entity({ schema: 'alerts', name: 'vehicle_states' })
export class VehicleState {
  @PrimaryColumn({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  /** The newest fix's place in the vehicle's order (`fixOrderMs`), not always its fix time. */
  @Column({ name: 'newest_fix', type: 'timestamptz' })
  newestFix!: Date;

  @Column({ type: 'jsonb' })
  state!: object;
}
