import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsISO8601,
  IsLatitude,
  IsLongitude,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';

/** Most positions accepted in one batch request. */
export const MAX_POSITIONS_PER_BATCH = 1_000;

export class BatchPositionDto {
  /** The tracker's IMEI. */
  @ApiProperty({ description: "The tracker's IMEI.", maxLength: 64 })
  @IsString()
  @Length(1, 64)
  deviceId!: string;

  /** Fix time, ISO 8601 with offset or `Z`. */
  @ApiProperty({ format: 'date-time' })
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

  /** km/h. */
  @ApiPropertyOptional({ description: 'km/h', minimum: 0 })
  @IsOptional()
  @IsNumber()
  @Min(0)
  speed?: number;

  /** Degrees clockwise from north, 0 to 359. */
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 359 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(359)
  course?: number;

  /** Metres above sea level. */
  @ApiPropertyOptional({ description: 'metres above sea level' })
  @IsOptional()
  @IsNumber()
  altitude?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  ignition?: boolean;
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
  @ApiProperty({ type: 'integer', description: 'Positions accepted (the whole batch).' })
  accepted!: number;
}
