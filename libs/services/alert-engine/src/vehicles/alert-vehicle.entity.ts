import { Column, Entity, PrimaryColumn } from 'typeorm';

/** alert-engine's projection of the vehicle registry (from vehicle snapshots): name, companies, tags. */
@Entity({ schema: 'alerts', name: 'vehicles' })
export class AlertVehicle {
  @PrimaryColumn({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'company_ids', type: 'integer', array: true })
  companyIds!: number[];

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  tags!: string[];

  /** Version of the snapshot this row reflects; older snapshots never overwrite newer ones. */
  @Column({ type: 'bigint' })
  version!: string;
}
