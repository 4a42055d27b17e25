import { alertTypeById } from '@fleet/contracts';
import { formatDotNet, userTimeWithoutOffset, utcWithoutOffset } from './zoned-time';

/** What an alert record is, whoever reads it: the record routes (alert-engine) and the live channels (query-api). */
export interface AlertRecordFields {
  id: number;
  utcTime: Date;
  configurationId: number;
  alertTypeId: number;
  vehicleId: number;
  vehicleName: string;
  description: string;
  lat: number;
  lng: number;
  /** Reverse-geocoded, one line. */
  address: string | null;
  isRead: boolean;
}

/** How a token reads times: its company's zone and display pattern (position and alert records alike). */
export interface RecordViewer {
  timeZone: string;
  dateFormat: string;
}

/** The alert record of the V2 interface (docs/alerts.md, Routes): times as in position records. */
export interface AlertRecordV2Fields {
  id: number;
  utcTime: string;
  userTime: string;
  userTimeFormatted: string;
  alertTypeId: number;
  alertType: string;
  description: string;
  vehicleId: number;
  vehicleName: string;
  address: string | null;
  lat: number;
  lng: number;
  isRead: boolean;
  alertId: number;
}

/** The catalog's listing name of a type (its id as text for a type the catalog no longer has). */
export const listingNameOf = (alertTypeId: number): string =>
  alertTypeById(alertTypeId)?.listingName ?? String(alertTypeId);

export function alertRecordV2Of(record: AlertRecordFields, viewer: RecordViewer): AlertRecordV2Fields {
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
