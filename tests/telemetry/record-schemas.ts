/**
 * The records of the spec, field by field, written from the spec's tables (not from our classes), so
 * that a renamed, missing, extra or mistyped field fails a test. `?` marks a field that may be null.
 */
type FieldType =
  | 'integer'
  | 'number'
  | 'string'
  | 'boolean'
  | 'utc' // date-time without offset
  | 'utcZ' // UTC ending in Z
  | 'local' // user time without offset
  | 'offset' // user time with offset
  | 'timespan' // .NET TimeSpan
  | 'isoDuration'
  | 'array'
  | 'object';

export type RecordSchema = Record<string, FieldType | `${FieldType}?`>;

const patterns: Partial<Record<FieldType, RegExp>> = {
  utc: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?$/,
  utcZ: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/,
  local: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?$/,
  offset: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?[+-]\d{2}:\d{2}$/,
  timespan: /^-?(\d+\.)?\d{2}:\d{2}:\d{2}(\.\d{7})?$/,
  isoDuration: /^P(?!$)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/,
};

/** The problems of `value` against `schema`: missing, extra and mistyped fields. Empty when it matches. */
export function shapeProblems(value: unknown, schema: RecordSchema): string[] {
  if (typeof value !== 'object' || value === null) return ['not an object'];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(record)) if (!(key in schema)) problems.push(`unexpected field ${key}`);
  for (const [key, spec] of Object.entries(schema)) {
    if (!(key in record)) {
      problems.push(`missing field ${key}`);
      continue;
    }
    const nullable = spec.endsWith('?');
    const type = spec.replace('?', '') as FieldType;
    const field = record[key];
    if (field === null) {
      if (!nullable) problems.push(`${key} is null`);
      continue;
    }
    const ok =
      type === 'integer'
        ? Number.isInteger(field)
        : type === 'number'
          ? typeof field === 'number' && Number.isFinite(field)
          : type === 'boolean'
            ? typeof field === 'boolean'
            : type === 'array'
              ? Array.isArray(field)
              : type === 'object'
                ? typeof field === 'object' && !Array.isArray(field)
                : typeof field === 'string' && (patterns[type]?.test(field) ?? true);
    if (!ok) problems.push(`${key} is not ${type}: ${JSON.stringify(field)}`);
  }
  return problems;
}

export const positionV2: RecordSchema = {
  utcTime: 'utc',
  userTime: 'local',
  userTimeFormatted: 'string',
  lat: 'number',
  lng: 'number',
  speed: 'number',
  course: 'integer',
  ignition: 'boolean?',
  odometer: 'number?',
  voltage: 'number?',
  fatigue: 'timespan',
  engineHours: 'number?',
  satelliteCoverage: 'string?',
  satelliteCoverageRawValue: 'integer?',
  networkCoverage: 'string?',
  networkCoverageRawValue: 'integer?',
  deviceId: 'integer',
  ignitionTime: 'number?',
  deviceName: 'string',
  imei: 'string',
  vin: 'string?',
  startMovingTime: 'utc?',
  startMovingTimeUser: 'local?',
  lastMovementTime: 'utc?',
  lastMovementTimeUser: 'local?',
  lastMovementTimeUserFormatted: 'string?',
  drivingTime: 'number',
  fuelLevel: 'number?',
  fuelVolume: 'number?',
  batteryLevel: 'number?',
  chargerPower: 'number?',
  chargingEnergy: 'number?',
  batteryRange: 'number?',
  isDoorLocked: 'boolean?',
  address: 'string?',
  engineEnabled: 'boolean?',
  timeElapsed: 'number',
  startedTime: 'utc?',
  endTime: 'utc?',
  isOnline: 'boolean',
  // The one field beyond the spec's table (an extension, docs/telemetry.md): how the position came in.
  protocol: 'string?',
};

export const positionV1: RecordSchema = {
  Id: 'integer',
  UtcTime: 'utcZ',
  UserTime: 'offset',
  UserTimeFormated: 'string',
  Lat: 'number',
  Lng: 'number',
  Speed: 'number',
  Course: 'integer',
  Ignition: 'boolean?',
  Odometer: 'number?',
  Voltage: 'number?',
  Fatigue: 'isoDuration',
  EngineHours: 'number?',
  SatSignal: 'string?',
  Satellites: 'integer?',
  ConnectionStrengh: 'string?',
  DeviceId: 'integer',
  IgnitionTime: 'number?',
  DeviceName: 'string',
  IMEI: 'string',
  Vin: 'string?',
  StartMovingTime: 'utcZ?',
  StartMovingTimeUser: 'offset?',
  LastMovementTime: 'utcZ?',
  LastMovementTimeUser: 'offset?',
  LastMovementTimeUserFormated: 'string?',
  DrivingTime: 'number',
  Driver: 'string?',
  FuelLevel: 'number?',
  DTC: 'string?',
  IsDoorLocked: 'boolean?',
  Address: 'string?',
  EngineEnabled: 'boolean?',
  timeElapsed: 'number',
  startedTime: 'utcZ?',
  endTime: 'utcZ?',
};

export const lastTimeOnlineV2: RecordSchema = {
  vehicleId: 'integer',
  imei: 'string',
  lastTimeOnlineUtc: 'utc',
  secondsAgo: 'number',
};

export const nearestV2: RecordSchema = { vehicle: 'object', distance: 'number', realDistance: 'number' };
export const nearestV1Result: RecordSchema = { Status: 'string', result: 'array' };
export const nearestV1Item: RecordSchema = { vehicle: 'object', distance: 'string', realDistance: 'number' };

export const tripV1: RecordSchema = {
  id: 'integer',
  distance: 'number?',
  duration: 'isoDuration',
  startAddress: 'string?',
  endAddress: 'string?',
  startTimeUser: 'offset',
  endTimeUser: 'offset',
  encoded: 'string',
  url: 'string',
  points: 'array',
};

export const tripV2: RecordSchema = {
  ...tripV1,
  startTimeUser: 'local',
  endTimeUser: 'local',
  startTime: 'utc',
  endTime: 'utc',
};

export const tripPointV1: RecordSchema = { id: 'integer', lat: 'number', lng: 'number', utcTime: 'utcZ' };
export const tripPointV2: RecordSchema = { id: 'integer', lat: 'number', lng: 'number', utcTime: 'utc' };
export const imeiLookupV1: RecordSchema = { vehicleId: 'integer', vehicleName: 'string' };

export const envelope: RecordSchema = {
  items: 'array',
  totalResults: 'integer',
  lastResultIndex: 'integer',
  currentPage: 'integer',
  numberOfPages: 'integer',
};
