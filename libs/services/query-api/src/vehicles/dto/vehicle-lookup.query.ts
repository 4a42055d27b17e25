import { ApiPropertyOptional } from '@nestjs/swagger';
import { IdInput } from '@fleet/platform';
import { IsOptional, IsString, Length } from 'class-validator';

export class VehicleInfoQuery {
  @ApiPropertyOptional({ description: 'Tracker IMEI' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  imei?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  @IsOptional()
  @IdInput()
  vehicleId?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 64)
  vin?: string;
}

export class LegacyOptionalCompanyQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: "Default: the token's company" })
  @IsOptional()
  @IdInput()
  compId?: number;
}
