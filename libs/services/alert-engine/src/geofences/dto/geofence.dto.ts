import { utcWithZ } from '@fleet/formats';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { GeofenceView } from '../geofences.service';
import { CircleDto, PolygonDto } from './geofence-shapes.dto';

/** A geofence (extension): its shape as a circle or as a GeoJSON polygon, whichever it is. */
export class GeofenceItem {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ example: 'Depot' }) name!: string;
  @ApiPropertyOptional({ type: CircleDto, description: 'Present when the geofence is a circle' })
  circle?: CircleDto;
  @ApiPropertyOptional({ type: PolygonDto, description: 'Present when the geofence is a polygon' })
  polygon?: PolygonDto;
  @ApiProperty({ format: 'date-time', description: 'UTC', example: '2026-04-28T10:00:00Z' })
  createdAt!: string;
  @ApiProperty({ format: 'date-time', description: 'UTC', example: '2026-04-28T10:00:00Z' })
  updatedAt!: string;
}

export function toGeofenceItem(view: GeofenceView): GeofenceItem {
  const { shape } = view;
  return {
    id: view.id,
    name: view.name,
    ...(shape.kind === 'circle'
      ? { circle: { lat: shape.lat, lng: shape.lng, radiusM: shape.radiusM } }
      : { polygon: { type: 'Polygon', coordinates: shape.polygon.coordinates } }),
    createdAt: utcWithZ(view.createdAt),
    updatedAt: utcWithZ(view.updatedAt),
  };
}
