import { formatDotNet, listingNameOf, userTimeWithOffset, utcWithZ } from '@fleet/formats';
import { ApiProperty } from '@nestjs/swagger';
import { RecordViewer } from '../../common/alert-access';
import { AlertRecordView } from '../alert-record-view';

/**
 * Alert record of the V1 interface: the spec's field list, in the camelCase its examples use
 * (`userTimeFormatted`, not the schema's `UserTimeFormated`; docs/alerts.md). Times as in the V1
 * position record: UTC ending in Z, the user's time with its offset.
 */
export class AlertRecordV1 {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ example: '2026-04-28T10:00:00Z' }) utcTime!: string;
  @ApiProperty({ example: '2026-04-28T12:00:00+02:00' }) userTime!: string;
  @ApiProperty({ description: "In the token's display pattern", example: '28/04/2026 12:00:00' })
  userTimeFormatted!: string;
  @ApiProperty({ description: "The type's listing name", example: 'GeofenceEnter' }) alertType!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: 'integer' }) vehicleId!: number;
  @ApiProperty() vehicleName!: string;
  @ApiProperty({ nullable: true, type: 'string' }) address!: string | null;
  @ApiProperty() lat!: number;
  @ApiProperty() lng!: number;
  @ApiProperty() isRead!: boolean;
}

export function toAlertRecordV1(record: AlertRecordView, viewer: RecordViewer): AlertRecordV1 {
  return {
    id: record.id,
    utcTime: utcWithZ(record.utcTime),
    userTime: userTimeWithOffset(record.utcTime, viewer.timeZone),
    userTimeFormatted: formatDotNet(record.utcTime, viewer.timeZone, viewer.dateFormat),
    alertType: listingNameOf(record.alertTypeId),
    description: record.description,
    vehicleId: record.vehicleId,
    vehicleName: record.vehicleName,
    address: record.address,
    lat: record.lat,
    lng: record.lng,
    isRead: record.isRead,
  };
}
