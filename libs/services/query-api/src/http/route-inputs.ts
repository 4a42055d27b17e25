import { PageQuery } from '@fleet/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsISO8601,
  IsLatitude,
  IsLongitude,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Min,
} from 'class-validator';

/** `true`/`false` (any case) become booleans; anything else stays a string and fails validation. */
const toBoolean = Transform(({ value }) => {
  if (typeof value !== 'string') return value;
  const lower = value.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : value;
});

export class IdParam {
  @ApiProperty({ type: 'integer', minimum: 1 })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  id!: number;
}

export class ImeiParam {
  @ApiProperty({ description: 'Tracker IMEI' })
  @IsString()
  @Length(1, 64)
  imei!: string;
}

export class CompanyIdParam {
  @ApiProperty({ type: 'integer', minimum: 1 })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  companyId!: number;
}

export class LastPositionQuery extends PageQuery {
  @ApiPropertyOptional({
    type: 'boolean',
    default: false,
    description: 'Accepted for compatibility; no effect.',
  })
  @IsOptional()
  @toBoolean
  @IsBoolean()
  checkVehicleHandlerState: boolean = false;
}

export class NearestQuery extends PageQuery {
  @ApiPropertyOptional({ default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber()
  @IsLatitude()
  lat: number = 0;

  @ApiPropertyOptional({ default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber()
  @IsLongitude()
  lng: number = 0;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'At most this many, after the radius filter',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  num?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description: 'Planar degrees: vehicles whose rounded distance is at or above it are excluded',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  radius?: number;
}

export class TimeRangeQuery extends PageQuery {
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Start (inclusive); default 24 hours before `to`',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'End (exclusive); default now' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}

export class VehicleInfoQuery {
  @ApiPropertyOptional({ description: 'Tracker IMEI' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  imei?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  vehicleId?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 64)
  vin?: string;
}

/** V1 `id` + `from` + `to` (GetPositionData, GetReplay, GetReplayUserTime). */
export class LegacyRangeQuery {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Vehicle id' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  id!: number;

  @ApiProperty({ description: 'ISO 8601, or `yyyy-MM-dd HH:mm:ss`' })
  @IsString()
  from!: string;

  @ApiProperty({ description: 'ISO 8601, or `yyyy-MM-dd HH:mm:ss`' })
  @IsString()
  to!: string;
}

export class LegacyVehicleQuery {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Vehicle id' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  id!: number;
}

export class LegacyCompanyQuery {
  @ApiProperty({ type: 'integer', minimum: 1 })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  compId!: number;
}

export class LegacyNearestQuery extends LegacyCompanyQuery {
  @ApiProperty()
  @Type(() => Number)
  @IsNumber()
  @IsLatitude()
  lat!: number;

  @ApiProperty()
  @Type(() => Number)
  @IsNumber()
  @IsLongitude()
  lng!: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  num?: number;

  @ApiPropertyOptional({ description: 'Metres (straight line); omit for no radius' })
  @IsOptional()
  @Type(() => Number)
  @IsNumber()
  @Min(0)
  radius?: number;
}
