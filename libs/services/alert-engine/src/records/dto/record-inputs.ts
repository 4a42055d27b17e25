import { alertTypeIds } from '@fleet/contracts';
import { BooleanInput, DateTimeInput, IdInput, IntegerInput, NumberInput, PageQuery } from '@fleet/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { MAX_RECORD_ID } from '../../common/route-inputs';

/** Most records one V1 GetAlerts answers (spec). */
export const MAX_LEGACY_ALERTS = 100;

/** `GET /v2/api/companies/{id}/alert-records`: paging, and the filters this interface adds. */
export class AlertRecordQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'date-time', description: 'Extension: records at or after this instant' })
  @IsOptional()
  @DateTimeInput()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Extension: records before this instant' })
  @IsOptional()
  @DateTimeInput()
  to?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Extension: records of this vehicle' })
  @IsOptional()
  @IdInput()
  vehicleId?: number;

  @ApiPropertyOptional({
    type: 'integer',
    enum: [...alertTypeIds],
    description: 'Extension: records of this alert type',
  })
  @IsOptional()
  @NumberInput()
  @IsIn([...alertTypeIds])
  alertTypeId?: number;

  @ApiPropertyOptional({
    type: 'boolean',
    description: 'Extension: only read (true) or unread (false) records',
  })
  @IsOptional()
  @BooleanInput()
  isRead?: boolean;
}

/** `isRead` of update-read-status, as a query parameter (the spec's convention) or in a JSON or form body. */
export class ReadStatusInput {
  @ApiPropertyOptional({
    type: 'boolean',
    description:
      'Required (`true` or `false`): as a query parameter or in the body; the query parameter wins',
  })
  @IsOptional()
  @BooleanInput()
  isRead?: boolean;
}

/** V1 GetAlerts. */
export class LegacyAlertsQuery {
  @ApiProperty({ type: 'integer', minimum: 1 })
  @IdInput()
  compId!: number;

  @ApiProperty({
    description: 'Records at or after this time: ISO 8601, or `yyyy-MM-dd[ HH:mm:ss]` read as UTC',
    example: '2026-04-28',
  })
  @IsString()
  @Length(1, 64)
  from!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_LEGACY_ALERTS, description: 'At most this many' })
  @IntegerInput(1, MAX_LEGACY_ALERTS)
  num!: number;
}

/** V1 SetAlertAsRead. */
export class LegacySetAlertAsReadQuery {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Alert record id' })
  @IntegerInput(1, MAX_RECORD_ID)
  id!: number;

  @ApiPropertyOptional({
    description: "The record's UTC date (`yyyy-MM-dd` or a date-time on it); narrows the search",
    example: '2026-04-28',
  })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  date?: string;
}

/** V1 SetAllAlertAsRead. */
export class LegacyCompanyQuery {
  @ApiProperty({ type: 'integer', minimum: 1 })
  @IdInput()
  compId!: number;
}

/** The answer of the set-all routes (V2 and V1). */
export class ReadCount {
  @ApiProperty({ type: 'integer', description: 'How many records changed from unread to read' })
  updated!: number;
}
