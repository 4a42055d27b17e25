import type { AlertAddressV1, AlertDataV1 } from '@fleet/contracts';
import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One fired episode of one configuration. Partitioned by month of `utc_time` like position history
 * (partitions managed by RecordPartitions, not by TypeORM); the id is unique across partitions.
 */
@Entity({ schema: 'alerts', name: 'records' })
// (company_id, utc_time, id) for the newest-first listings: created by the migration (TypeORM misreads
// indexes of partitioned tables and would recreate it on every comparison).
@Index('records_company_time_idx', { synchronize: false })
@Index('records_once_idx', ['configurationId', 'vehicleId', 'utcTime'], { unique: true })
export class AlertRecord {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  /** The fix time of the position that fired it. */
  @PrimaryColumn({ name: 'utc_time', type: 'timestamptz' })
  utcTime!: Date;

  /** The company that owns the configuration. */
  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'configuration_id', type: 'integer' })
  configurationId!: number;

  @Column({ name: 'alert_type_id', type: 'smallint' })
  alertTypeId!: number;

  @Column({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @Column({ name: 'vehicle_name', type: 'text' })
  vehicleName!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'double precision' })
  lat!: number;

  @Column({ type: 'double precision' })
  lng!: number;

  @Column({ type: 'smallint' })
  course!: number;

  /** The address as one line (records' `address`), or null when none was found. */
  @Column({ type: 'text', nullable: true })
  address!: string | null;

  /** The address in parts (what fired-alert events carry). */
  @Column({ name: 'address_parts', type: 'jsonb', nullable: true })
  addressParts!: AlertAddressV1 | null;

  /** The type's data (docs/alerts.md), or null. */
  @Column({ type: 'jsonb', nullable: true })
  data!: AlertDataV1 | null;

  @Column({ name: 'is_read', type: 'boolean', default: false })
  isRead!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
