import { RecordSchema } from '../telemetry/record-schemas';

/**
 * The alert records and configurations field by field, from the spec's words and issue 17's lists
 * (not from our classes), so that a renamed, missing or mistyped field fails a test.
 */

/** V2 alert record (issue 17: camelCase, these fields). */
export const alertRecordV2: RecordSchema = {
  id: 'integer',
  utcTime: 'utc',
  userTime: 'local',
  userTimeFormatted: 'string',
  alertTypeId: 'integer',
  alertType: 'string',
  description: 'string',
  vehicleId: 'integer',
  vehicleName: 'string',
  address: 'string?',
  lat: 'number',
  lng: 'number',
  isRead: 'boolean',
  alertId: 'integer',
};

/** V1 alert record (spec: its field list, in the camelCase of its examples; times as V1 position records). */
export const alertRecordV1: RecordSchema = {
  id: 'integer',
  utcTime: 'utcZ',
  userTime: 'offset',
  userTimeFormatted: 'string',
  alertType: 'string',
  description: 'string',
  vehicleId: 'integer',
  vehicleName: 'string',
  address: 'string?',
  lat: 'number',
  lng: 'number',
  isRead: 'boolean',
};

/** Alert configuration (issue 17's list). */
export const alertConfiguration: RecordSchema = {
  id: 'integer',
  name: 'string',
  alertTypeId: 'integer',
  alertType: 'string',
  vehicleIds: 'array',
  tags: 'array',
  settings: 'object',
  isActive: 'boolean',
};

/** Geofence (extension), a circle or a polygon: the shape's key is added per test. */
export const geofenceBase: RecordSchema = {
  id: 'integer',
  name: 'string',
  createdAt: 'string',
  updatedAt: 'string',
};

/** A closed square of about 1 km around a point in Berlin. */
export const square = (lng = 13.4, lat = 52.5) => ({
  type: 'Polygon',
  coordinates: [
    [
      [lng, lat],
      [lng + 0.01, lat],
      [lng + 0.01, lat + 0.01],
      [lng, lat + 0.01],
      [lng, lat],
    ],
  ],
});
