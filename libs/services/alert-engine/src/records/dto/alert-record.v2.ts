import { alertTypeById } from '@fleet/contracts';
import { formatDotNet, userTimeWithoutOffset, utcWithoutOffset } from '@fleet/formats';
import { ApiProperty } from '@nestjs/swagger';
import { RecordViewer } from '../../common/alert-access';
import { AlertRecordView } from '../alert-record-view';

/** Alert record of the V2 interface (camelCase; docs/alerts.md, Routes). Times as in position records. */
export class AlertRecordV2 {
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

export function toAlertRecordV2(record: AlertRecordView, viewer: RecordViewer): AlertRecordV2 {
  return {
    id: record.id,
    utcTime: utcWithoutOffset(record.utcTime),
    userTime: userTimeWithoutOffset(record.utcTime, viewer.timeZone),
    userTimeFormatted: formatDotNet(record.utcTime, viewer.timeZone, viewer.dateFormat),
    alertTypeId: record.alertTypeId,
    alertType: listingNameOf(record.alertTypeId),
    description: record.description,
    vehicleId: record.vehicleId,
    vehicleName: record.vehicleName,
    address: record.address,
    lat: record.lat,
    lng: record.lng,
    isRead: record.isRead,
    alertId: record.configurationId,
  };
}

/** The catalog's listing name of a type (its id as text for a type the catalog no longer has). */
export const listingNameOf = (alertTypeId: number): string =>
  alertTypeById(alertTypeId)?.listingName ?? String(alertTypeId);
