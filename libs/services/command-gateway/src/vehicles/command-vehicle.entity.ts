import { Column, Entity, PrimaryColumn } from 'typeorm';

/** command-gateway's projection of the vehicle registry (from vehicle snapshots): who may command a vehicle. */
@Entity({ schema: 'commands', name: 'vehicles' })
export class CommandVehicle {
  @PrimaryColumn({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @Column({ name: 'company_ids', type: 'integer', array: true })
  companyIds!: number[];

  /** Version of the snapshot this row reflects; older snapshots never overwrite newer ones. */
  @Column({ type: 'bigint' })
  version!: string;
}
