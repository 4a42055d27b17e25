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
  @IsString()
  @Length(1, 64)
  deviceId!: string;

  /** Fix time, ISO 8601 with offset or `Z`. */
  @IsISO8601({ strict: true })
  timestamp!: string;

  @IsNumber()
  @IsLatitude()
  lat!: number;

  @IsNumber()
  @IsLongitude()
  lon!: number;

  /** km/h. */
  @IsOptional()
  @IsNumber()
  @Min(0)
  speed?: number;

  /** Degrees clockwise from north, 0 to 359. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(359)
  course?: number;

  /** Metres above sea level. */
  @IsOptional()
  @IsNumber()
  altitude?: number;

  @IsOptional()
  @IsBoolean()
  ignition?: boolean;
}

export class PositionBatchDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_POSITIONS_PER_BATCH)
  @ValidateNested({ each: true })
  @Type(() => BatchPositionDto)
  positions!: BatchPositionDto[];
}
