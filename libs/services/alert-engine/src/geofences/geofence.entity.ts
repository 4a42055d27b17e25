import type { GeofenceShape } from '@fleet/geo';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A company's geofence: a circle or a polygon. Deleting one keeps the row (records name it). */
@Entity({ schema: 'alerts', name: 'geofences' })
@Index('geofences_company_idx', ['companyId', 'id'])
export class Geofence {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ type: 'text' })
  name!: string;

  /** `{kind: 'circle', lat, lng, radiusM}` or `{kind: 'polygon', polygon: <GeoJSON Polygon>}`. */
  @Column({ type: 'jsonb' })
  shape!: GeofenceShape;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}
