import { deviceEventTypes, PositionReadingsV1 } from '@fleet/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsISO8601,
  IsLatitude,
  IsLongitude,
  IsNumber,
  IsString,
  Length,
  ValidateNested,
} from 'class-validator';

/** Most positions accepted in one batch request. */
export const MAX_POSITIONS_PER_BATCH = 1_000;

/**
 * One position of the integrators' batch: the device, the fix, and any readings under the event
 * contract's names and units (PositionReadingsV1, validated by its own decorators).
 */
export class BatchPositionDto extends PositionReadingsV1 {
  @ApiProperty({ description: "The tracker's IMEI.", maxLength: 64 })
  @IsString()
  @Length(1, 64)
  deviceId!: string;

  @ApiProperty({ format: 'date-time', description: 'Fix time, ISO 8601 with offset or Z' })
  @IsISO8601({ strict: true })
  timestamp!: string;

  @ApiProperty({ minimum: -90, maximum: 90 })
  @IsNumber()
  @IsLatitude()
  lat!: number;

  @ApiProperty({ minimum: -180, maximum: 180 })
  @IsNumber()
  @IsLongitude()
  lon!: number;
}

/**
 * OpenAPI descriptions of the readings (the contracts library stays free of framework decorators).
 * `protocol` is not a reading a sender gives: the intake sets it (`batch` here).
 */
const readingDocs: Record<
  Exclude<keyof PositionReadingsV1, 'protocol'>,
  { type: 'number' | 'integer' | 'boolean' | 'string'; description: string; isArray?: boolean }
> = {
  speedKmh: { type: 'number', description: 'km/h' },
  course: { type: 'integer', description: 'degrees clockwise from north, 0–359' },
  altitudeM: { type: 'number', description: 'metres above sea level' },
  accuracyM: { type: 'number', description: 'horizontal accuracy, metres' },
  hdop: { type: 'number', description: 'horizontal dilution of precision' },
  satellites: { type: 'integer', description: 'satellites in the fix' },
  signal: { type: 'integer', description: 'cellular signal bars, 0–5' },
  ignition: { type: 'boolean', description: 'ignition on' },
  motion: { type: 'boolean', description: "the tracker's motion flag" },
  odometerM: { type: 'number', description: 'total distance, metres' },
  engineHours: { type: 'number', description: 'total engine time, hours' },
  powerV: { type: 'number', description: 'supply voltage, volts' },
  batteryLevel: { type: 'number', description: 'battery, percent' },
  charging: { type: 'boolean', description: 'battery charging' },
  chargerPowerKw: { type: 'number', description: 'EV charger power, kW' },
  chargingEnergyKwh: { type: 'number', description: 'EV energy charged this session, kWh' },
  batteryRangeKm: { type: 'number', description: 'EV range, km' },
  fuelLevel: { type: 'number', description: 'fuel, percent of the tank' },
  fuelVolumeL: { type: 'number', description: 'fuel, litres' },
  doorLocked: { type: 'boolean', description: 'doors locked' },
  engineEnabled: { type: 'boolean', description: 'false when immobilised' },
  rpm: { type: 'number', description: 'engine speed, revolutions per minute' },
  coolantTempC: { type: 'number', description: 'engine coolant temperature, °C' },
  driver: { type: 'string', description: 'driver identifier' },
  vin: { type: 'string', description: 'vehicle identification number read by the tracker' },
  deviceBatteryV: { type: 'number', description: "the tracker's own battery, volts" },
  deviceEvents: {
    type: 'string',
    isArray: true,
    description: `events the tracker detected itself: ${deviceEventTypes.join(', ')}`,
  },
  dtcCodes: { type: 'string', isArray: true, description: 'active diagnostic trouble codes' },
};
for (const [property, doc] of Object.entries(readingDocs)) {
  ApiPropertyOptional(doc)(BatchPositionDto.prototype, property);
}

export class PositionBatchDto {
  @ApiProperty({ type: [BatchPositionDto], minItems: 1, maxItems: MAX_POSITIONS_PER_BATCH })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_POSITIONS_PER_BATCH)
  @ValidateNested({ each: true })
  @Type(() => BatchPositionDto)
  positions!: BatchPositionDto[];
}

export class PositionBatchAccepted {
  @ApiProperty({ type: 'integer', description: 'Positions published into the history.' })
  accepted!: number;

  @ApiProperty({
    type: 'integer',
    description:
      'Positions taken but kept out of the history by the dirty-data rules (GPS glitches, (0, 0) or ' +
      'invalid fixes, duplicates; docs/trackers.md): sending them again changes nothing.',
  })
  refused!: number;
}
