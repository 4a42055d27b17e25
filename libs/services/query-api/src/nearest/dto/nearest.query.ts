import { PageQuery } from '@fleet/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsLatitude, IsLongitude, IsNumber, IsOptional, Min } from 'class-validator';
import { LegacyCompanyQuery } from '../../common/route-inputs';

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
