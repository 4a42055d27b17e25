import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Min } from 'class-validator';

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

export class LegacyOptionalCompanyQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: "Default: the token's company" })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  compId?: number;
}
