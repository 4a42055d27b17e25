import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString } from 'class-validator';
import { MAX_NAME_LENGTH } from '../../common/names';
import { CircleInput, GeoJsonPolygon } from '../geofence-rules';
import { CircleDto, PolygonDto } from './geofence-shapes.dto';

/**
 * The JSON body of `POST /v2/api/companies/{id}/geofences` (extension): a name and exactly one of
 * `circle` and `polygon`. Types are checked here, shapes by `@fleet/geo`'s rules in the service;
 * each failure a 422 naming its field.
 */
export class NewGeofenceBody {
  @ApiProperty({ description: `1 to ${MAX_NAME_LENGTH} characters, trimmed`, example: 'Depot' })
  @IsString()
  name!: string;

  @ApiPropertyOptional({ type: CircleDto, description: 'A circle; or give `polygon`' })
  @IsOptional()
  @IsObject()
  circle?: CircleInput;

  @ApiPropertyOptional({ type: PolygonDto, description: 'A GeoJSON Polygon; or give `circle`' })
  @IsOptional()
  @IsObject()
  polygon?: GeoJsonPolygon;
}

/**
 * The JSON body of `PUT /v2/api/companies/{id}/geofences/{geofenceId}` (extension): a new name, a
 * new shape (`circle` or `polygon`, replacing the old one whichever it was), or both.
 */
export class GeofenceChangeBody extends PartialType(NewGeofenceBody) {}
