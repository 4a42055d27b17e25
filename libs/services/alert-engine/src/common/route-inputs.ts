/** Path and query inputs shared by alert-engine's routes (company, configuration, geofence, record ids). */
import { IdInput, IntegerInput } from '@fleet/platform';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

/** Largest record id a route takes: record ids are `bigint`, written to clients as JSON numbers. */
export const MAX_RECORD_ID = Number.MAX_SAFE_INTEGER;

export class CompanyParam {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Company id' })
  @IdInput()
  id!: number;
}

export class ConfigurationParams extends CompanyParam {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Alert configuration id' })
  @IdInput()
  alertId!: number;
}

export class GeofenceParams extends CompanyParam {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Geofence id' })
  @IdInput()
  geofenceId!: number;
}

export class RecordDateParams {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Alert record id' })
  @IntegerInput(1, MAX_RECORD_ID)
  id!: number;

  @ApiProperty({
    description: "The record's UTC date, `yyyy-MM-dd`, or an ISO 8601 date-time on that date",
    example: '2026-04-28',
  })
  @IsString()
  @Length(1, 64)
  date!: string;
}
