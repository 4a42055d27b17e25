import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** The vehicle registry: query-api owns it and announces every change as a vehicle snapshot. */
@Entity({ schema: 'query', name: 'vehicles' })
export class Vehicle {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'text' })
  name!: string;

  /** The tracker's IMEI; one tracker reports for one vehicle. */
  @Index('vehicles_imei_key', { unique: true })
  @Column({ type: 'text' })
  imei!: string;

  @Column({ type: 'text', nullable: true })
  vin!: string | null;

  /**
   * Free labels for grouping (`refrigerated`, `north-depot`): alert configurations cover vehicles by
   * tag. Kept normalized by normalizeTags (vehicle-tags.ts): trimmed, unique, at most 20.
   */
  @Column({ type: 'text', array: true, default: '{}' })
  tags!: string[];

  /**
   * Added to every odometer reading of the vehicle's device when positions are projected, in metres
   * (set by `odometer` commands: commands/odometer-offset.ts). Not part of the vehicle snapshot.
   */
  @Column({ name: 'odometer_offset_m', type: 'double precision', default: 0 })
  odometerOffsetM!: number;

  @Column({ type: 'integer', default: 1 })
  version!: number;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}

/**
 * Which companies a vehicle is mapped to. Company ids come from auth's snapshots; there is no foreign
 * key because the companies table belongs to another service.
 */
@Entity({ schema: 'query', name: 'vehicle_companies' })
@Index('vehicle_companies_company_idx', ['companyId'])
// A company's vehicles that have reported, in id order: the pages and totals of its last positions.
@Index('vehicle_companies_reported_idx', ['companyId', 'vehicleId'], { where: 'reported' })
export class VehicleCompany {
  @PrimaryColumn({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @PrimaryColumn({ name: 'company_id', type: 'integer' })
  companyId!: number;

  /**
   * The vehicle has a last position. Kept here, beside the mapping, so that counting a company's
   * reporting vehicles reads one index instead of probing last_positions per vehicle. Set by
   * VehicleRegistry when the mapping is made and by PositionProjection on a vehicle's first report.
   */
  @Column({ type: 'boolean', default: false })
  reported!: boolean;

  @ManyToOne(() => Vehicle, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'vehicle_id', foreignKeyConstraintName: 'vehicle_companies_vehicle_fk' })
  vehicle?: Vehicle;
}
