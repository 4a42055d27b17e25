import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Ingest's own projection of the vehicle registry: which tracker IMEI reports for which vehicle. */
@Entity({ schema: 'ingest', name: 'device_sessions' })
export class DeviceSession {
  @PrimaryColumn({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @Index('device_sessions_imei_idx')
  @Column({ type: 'text' })
  imei!: string;

  /** Companies of the vehicle (who may send its positions through the batch endpoint); null if unknown. */
  @Column({ name: 'company_ids', type: 'integer', array: true, nullable: true })
  companyIds!: number[] | null;

  /** Version of the vehicle snapshot this row reflects; older snapshots never overwrite newer ones. */
  @Column({ type: 'bigint' })
  version!: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
