import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsObject, IsOptional, IsString } from 'class-validator';
import { MAX_NAME_LENGTH } from '../../common/names';
import { MAX_LISTED, MAX_TAG_LENGTH } from '../configuration-rules';
import { AlertSettingsDto } from './alert-settings.dto';

/**
 * The JSON body of `POST /v2/api/companies/{id}/alerts` (extension). Types are checked here; the
 * rules (names, the catalog, settings, the company's geofences and vehicles) by the service, each
 * failure a 422 naming its field.
 */
export class NewAlertConfigurationBody {
  @ApiProperty({
    description: `1 to ${MAX_NAME_LENGTH} characters, trimmed`,
    example: 'Depot entry',
  })
  @IsString()
  name!: string;

  @ApiProperty({ type: 'integer', description: 'A type id of the catalog (docs/alerts.md)', example: 1 })
  @IsInt()
  alertTypeId!: number;

  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    maxItems: MAX_LISTED,
    description: 'Vehicles mapped to the company (creation: none when left out)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LISTED)
  @IsInt({ each: true })
  vehicleIds?: number[];

  @ApiPropertyOptional({
    type: 'string',
    isArray: true,
    maxItems: MAX_LISTED,
    description: `Vehicle tags, 1 to ${MAX_TAG_LENGTH} characters each (creation: none when left out)`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LISTED)
  @IsString({ each: true })
  tags?: string[];

  @ApiPropertyOptional({ type: AlertSettingsDto })
  @IsOptional()
  @IsObject()
  settings?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'boolean', description: 'Creation: true when left out' })
  @IsOptional()
  @IsBoolean()
  isActive?: boolean;
}

/**
 * The JSON body of `PUT /v2/api/companies/{id}/alerts/{alertId}` (extension): any of POST's fields;
 * those left out keep their value, `settings` replaces the settings as a whole (docs/alerts.md).
 */
export class AlertConfigurationChangeBody extends PartialType(NewAlertConfigurationBody) {}
