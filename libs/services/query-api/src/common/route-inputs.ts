/** Inputs shared by several query-api routes (vehicle and company ids, IMEIs, time ranges). */
import { DateTimeInput, IdInput, PageQuery } from '@fleet/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';

export class IdParam {
  @ApiProperty({ type: 'integer', minimum: 1 })
  @IdInput()
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
  @IdInput()
  companyId!: number;
}

export class TimeRangeQuery extends PageQuery {
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Start (inclusive); default 24 hours before `to`',
  })
  @IsOptional()
  @DateTimeInput()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'End (exclusive); default now' })
  @IsOptional()
  @DateTimeInput()
  to?: string;
}

/** V1 `id` + `from` + `to` (GetPositionData, GetReplay, GetReplayUserTime). */
export class LegacyRangeQuery {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Vehicle id' })
  @IdInput()
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
  @IdInput()
  id!: number;
}

export class LegacyCompanyQuery {
  @ApiProperty({ type: 'integer', minimum: 1 })
  @IdInput()
  compId!: number;
}
