import { alertRecordV2Of, AlertRecordV2Fields } from '@fleet/formats';
import { ApiProperty } from '@nestjs/swagger';
import { RecordViewer } from '../../common/alert-access';
import { AlertRecordView } from '../alert-record-view';

/** Alert record of the V2 interface (camelCase; docs/alerts.md, Routes). Times as in position records. */
export class AlertRecordV2 implements AlertRecordV2Fields {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ description: 'UTC, without offset', example: '2026-04-28T10:00:00' }) utcTime!: string;
  @ApiProperty({ description: "The token's time zone, without offset", example: '2026-04-28T12:00:00' })
  userTime!: string;
  @ApiProperty({ description: "In the token's display pattern", example: '28/04/2026 12:00:00' })
  userTimeFormatted!: string;
  @ApiProperty({ type: 'integer', example: 1 }) alertTypeId!: number;
  @ApiProperty({ description: "The type's listing name", example: 'GeofenceEnter' }) alertType!: string;
  @ApiProperty({ example: 'Entered geofence Depot' }) description!: string;
  @ApiProperty({ type: 'integer' }) vehicleId!: number;
  @ApiProperty() vehicleName!: string;
  @ApiProperty({ nullable: true, type: 'string', description: 'Reverse-geocoded, one line' })
  address!: string | null;
  @ApiProperty() lat!: number;
  @ApiProperty() lng!: number;
  @ApiProperty() isRead!: boolean;
  @ApiProperty({ type: 'integer', description: 'The alert configuration that fired' }) alertId!: number;
}

/** The V2 record, as every reader of alert records builds it (@fleet/formats). */
export const toAlertRecordV2 = (record: AlertRecordView, viewer: RecordViewer): AlertRecordV2 =>
  alertRecordV2Of(record, viewer);
