import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/**
 * The settings of a configuration: each type takes only its own keys (docs/alerts.md, catalog).
 * Left-out keys take the type's default; a key the type does not take is a 422.
 */
@ApiSchema({ name: 'AlertSettings' })
export class AlertSettingsDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'Types 1 and 2 (required): a geofence of the same company',
  })
  geofenceId?: number;

  @ApiPropertyOptional({ description: 'Types 3 (default 1) and 9 (default 11.8): volts, 0 to 60' })
  thresholdV?: number;

  @ApiPropertyOptional({ description: 'Type 10: km/h, 1 to 500, default 100' })
  maxSpeedKmh?: number;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'Type 10: seconds above the maximum before it fires, 0 to 3600, default 0 (at once)',
  })
  minDurationSeconds?: number;

  @ApiPropertyOptional({ description: 'Types 12 (default 0.4) and 13 (default 0.3): g, 0.1 to 2' })
  thresholdG?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Type 14: minutes, 1 to 1440, default 5' })
  idleMinutes?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Type 16: rpm, 500 to 20000, default 4000' })
  maxRpm?: number;

  @ApiPropertyOptional({ description: 'Type 17: °C, 40 to 150, default 105' })
  maxCoolantTempC?: number;
}
