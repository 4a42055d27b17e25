import { IntegerInput, MAX_ID, NumberInput, PageQuery } from '@fleet/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsLatitude, IsLongitude, IsNumber, IsOptional, Min } from 'class-validator';
import { LegacyCompanyQuery } from '../../common/route-inputs';

/** Most vehicles a nearest query returns (`num`): far above any fleet, and within what SQL's LIMIT takes. */
export const MAX_NEAREST_COUNT = 1_000_000;

export class NearestQuery extends PageQuery {
  @ApiPropertyOptional({ default: 0 })
  @IsOptional()
  @NumberInput()
  @IsNumber()
  @IsLatitude()
  lat: number = 0;

  @ApiPropertyOptional({ default: 0 })
  @IsOptional()
  @NumberInput()
  @IsNumber()
  @IsLongitude()
  lng: number = 0;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'At most this many, after the radius filter',
  })
  @IsOptional()
  @IntegerInput(1, MAX_NEAREST_COUNT)
  num?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description: 'Planar degrees: vehicles whose rounded distance is at or above it are excluded',
  })
  @IsOptional()
  @IntegerInput(0, MAX_ID)
  radius?: number;
}

export class LegacyNearestQuery extends LegacyCompanyQuery {
  @ApiProperty()
  @NumberInput()
  @IsNumber()
  @IsLatitude()
  lat!: number;

  @ApiProperty()
  @NumberInput()
  @IsNumber()
  @IsLongitude()
  lng!: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  @IsOptional()
  @IntegerInput(1, MAX_NEAREST_COUNT)
  num?: number;

  @ApiPropertyOptional({ description: 'Metres (straight line); omit for no radius' })
  @IsOptional()
  @NumberInput()
  @IsNumber()
  @Min(0)
  radius?: number;
}
