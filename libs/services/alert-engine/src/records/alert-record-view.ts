import { AlertRecordFields } from '@fleet/formats';

/** One stored alert record, as the record routes read it: the fields of every reader, and its company. */
export interface AlertRecordView extends AlertRecordFields {
  companyId: number;
}

/** A record row as the record queries select it ({@link RECORD_COLUMNS}). */
export interface AlertRecordRow {
  id: string;
  utc_time: Date;
  company_id: number;
  configuration_id: number;
  alert_type_id: number;
  vehicle_id: number;
  vehicle_name: string;
  description: string;
  lat: number;
  lng: number;
  address: string | null;
  is_read: boolean;
}

export const RECORD_COLUMNS = `id, utc_time, company_id, configuration_id, alert_type_id, vehicle_id, vehicle_name,
  description, lat, lng, address, is_read`;

export const toRecordView = (row: AlertRecordRow): AlertRecordView => ({
  // bigint: exact as a JSON number up to 2^53 − 1, which a record id will not reach.
  id: Number(row.id),
  utcTime: row.utc_time,
  companyId: row.company_id,
  configurationId: row.configuration_id,
  alertTypeId: row.alert_type_id,
  vehicleId: row.vehicle_id,
  vehicleName: row.vehicle_name,
  description: row.description,
  lat: row.lat,
  lng: row.lng,
  address: row.address,
  isRead: row.is_read,
});
