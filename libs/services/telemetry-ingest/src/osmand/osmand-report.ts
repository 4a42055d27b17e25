import { type PositionReadingsV1, unstorableTextProblem } from '@fleet/contracts';
import { KMH_PER_KNOT } from '@fleet/geo';

/**
 * Parsing of the OsmAnd tracker protocol (the HTTP protocol of Traccar's port 5055, spoken by the
 * OsmAnd app and the Traccar Client phone app) into the platform's units. Pure functions, no I/O:
 * the device listener owns HTTP, and the intake service owns device lookup and publishing.
 * docs/osmand.md is the field-by-field reference.
 */

/** One tracker report, normalized: who, when, where, and what it measured. */
export interface DeviceReport {
  /** The IMEI as sent (surrounding whitespace removed). */
  deviceId: string;
  /** Undefined when the report has no timestamp: the caller uses the receive time. */
  fixTime: Date | undefined;
  lat: number;
  lng: number;
  /** Only the readings present in the report; an absent reading has no key at all. */
  readings: PositionReadingsV1;
  /** The outcome of a command the device was handed (`cmdid` and `cmdstatus`), when it reports one. */
  acknowledgement?: CommandAcknowledgement;
  /**
   * The device secret (`secret`), when the report carries one: the listener compares it with the
   * vehicle's (docs/device-settings.md) and passes it on to nothing else.
   */
  secret?: string;
}

/** A device's report of what became of a command (docs/osmand.md, "Commands (extension)"). */
export interface CommandAcknowledgement {
  /** The command's id, lower-cased. */
  commandId: string;
  status: 'ok' | 'failed';
  /** Why it failed, when known (a command the device's profile lacks). */
  reason?: string;
  /** The device's own answer text (Teltonika Codec 12, GT06 0x15). */
  answer?: string;
}

/** A report the platform cannot use; `field` names the offending parameter or JSON path. */
export class OsmAndParseError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'OsmAndParseError';
  }
}

/** A value as it arrives: always text in a query string or form, possibly typed in JSON. */
type Scalar = string | number | boolean;

/** Bounds of a numeric field, inclusive. */
interface Range {
  min?: number;
  max?: number;
}

const KMH_PER_METRE_PER_SECOND = 3.6;
/** Numeric timestamps at or above this are milliseconds (1e11 s would be the year 5138). */
const MILLISECONDS_THRESHOLD = 1e11;
const MAX_DEVICE_ID_LENGTH = 64;
const MAX_DRIVER_LENGTH = 128;
/** Bad values are echoed in the 400 answer; a long one is cut so the answer stays short. */
const MAX_SHOWN_VALUE_LENGTH = 80;
/**
 * Arrays and objects are echoed this deep and this wide at most: a JSON body may nest thousands of
 * levels within its 64 KB, and writing all of it out (JSON.stringify) overflows the stack.
 */
const MAX_SHOWN_DEPTH = 3;
const MAX_SHOWN_ITEMS = 8;

/** Plain decimal notation only: Number() alone would also take '', '0x1F', 'Infinity' and ' 1 '. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
/**
 * ISO 8601 extended date-time (`T`) and the `yyyy-MM-dd HH:mm:ss` form (a space); seconds and
 * fraction optional, offset optional (none means UTC).
 */
const DATE_TIME =
  /^(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})[T ](?<hour>\d{2}):(?<minute>\d{2})(?::(?<second>\d{2})(?:[.,](?<fraction>\d+))?)?(?<zone>Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function show(value: unknown): string {
  const text = preview(value, 0);
  return text.length > MAX_SHOWN_VALUE_LENGTH ? `${text.slice(0, MAX_SHOWN_VALUE_LENGTH)}…` : text;
}

/** JSON text of the value down to MAX_SHOWN_DEPTH and across MAX_SHOWN_ITEMS, `…` for the rest. */
function preview(value: unknown, depth: number): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (depth >= MAX_SHOWN_DEPTH) return '[…]';
    const items = value.slice(0, MAX_SHOWN_ITEMS).map((item) => preview(item, depth + 1));
    return `[${items.join(',')}${value.length > MAX_SHOWN_ITEMS ? ',…' : ''}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    if (depth >= MAX_SHOWN_DEPTH) return '{…}';
    const members = entries
      .slice(0, MAX_SHOWN_ITEMS)
      .map(([key, member]) => `${JSON.stringify(key)}:${preview(member, depth + 1)}`);
    return `{${members.join(',')}${entries.length > MAX_SHOWN_ITEMS ? ',…' : ''}}`;
  }
  return JSON.stringify(value) ?? String(value);
}

function invalid(field: string, value: unknown, problem: string): OsmAndParseError {
  return new OsmAndParseError(field, `${field}: ${show(value)} ${problem}`);
}

function missing(field: string): OsmAndParseError {
  return new OsmAndParseError(field, `${field}: is required`);
}

function describeRange({ min, max }: Range): string {
  if (min !== undefined && max !== undefined) return `is outside ${min}..${max}`;
  return min !== undefined ? `is below ${min}` : `is above ${max}`;
}

function parseNumber(value: Scalar, field: string, range: Range = {}): number {
  let number: number;
  if (typeof value === 'number') {
    number = value;
  } else if (typeof value === 'string' && DECIMAL.test(value)) {
    number = Number(value);
  } else {
    throw invalid(field, value, 'is not a number');
  }
  if (!Number.isFinite(number)) throw invalid(field, value, 'is not a finite number');
  if ((range.min !== undefined && number < range.min) || (range.max !== undefined && number > range.max)) {
    throw invalid(field, value, describeRange(range));
  }
  return number;
}

function parseInteger(value: Scalar, field: string, range: Range = {}): number {
  const number = parseNumber(value, field, range);
  if (!Number.isInteger(number)) throw invalid(field, value, 'is not an integer');
  return number;
}

/** true/false/1/0 in any letter case; JSON may also send a real boolean. */
function parseBoolean(value: Scalar, field: string): boolean {
  if (typeof value === 'boolean') return value;
  const text = String(value).toLowerCase();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw invalid(field, value, 'is not a boolean (true, false, 1 or 0)');
}

/** Text the platform can store: nothing PostgreSQL refuses, no control characters (a NUL above all). */
function storable(text: string, field: string): string {
  const problem = unstorableTextProblem(text);
  if (problem !== undefined) throw invalid(field, text, problem);
  return text;
}

function parseText(value: Scalar, field: string, maxLength: number): string {
  if (typeof value === 'boolean') throw invalid(field, value, 'is not text');
  const text = String(value);
  if (text.length > maxLength) throw invalid(field, value, `is longer than ${maxLength} characters`);
  return storable(text, field);
}

/** Heading as whole degrees in 0–359, whatever full turns or sign the tracker used. */
function normalizeCourse(degrees: number): number {
  return ((Math.round(degrees) % 360) + 360) % 360;
}

/** Minutes east of UTC of `Z`, `±hh`, `±hhmm` or `±hh:mm`; no zone means UTC. Undefined when impossible. */
function zoneOffsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = zone.length > 3 ? Number(zone.slice(-2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

/** The instant of a written date-time; undefined when it does not exist (month 13, Feb 30, 24:00). */
function parseWrittenDateTime(text: string): Date | undefined {
  const parts = DATE_TIME.exec(text)?.groups;
  if (!parts) return undefined;
  const [year, month, day, hour, minute, second] = ['year', 'month', 'day', 'hour', 'minute', 'second'].map(
    (name) => Number(parts[name] ?? 0),
  );
  const offset = zoneOffsetMinutes(parts.zone);
  if (offset === undefined || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const millisecond = Number((parts.fraction ?? '').slice(0, 3).padEnd(3, '0'));
  const date = new Date(Date.UTC(2000, 0, 1, hour, minute, second, millisecond));
  // setUTCFullYear, unlike Date.UTC, takes years below 100 literally.
  date.setUTCFullYear(year, month - 1, day);
  // Date rolls a day that does not exist over into the next month (Feb 30 → Mar 1).
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return new Date(date.getTime() - offset * 60_000);
}

/**
 * Unix seconds (fraction allowed), Unix milliseconds (≥ 1e11), or an ISO 8601 / `yyyy-MM-dd HH:mm:ss`
 * date-time.
 */
function parseTimestamp(value: Scalar, field: string): Date {
  if (typeof value === 'number' || DECIMAL.test(String(value))) {
    const number = parseNumber(value, field, { min: 0 });
    const date = new Date(Math.round(number >= MILLISECONDS_THRESHOLD ? number : number * 1000));
    if (Number.isNaN(date.getTime())) throw invalid(field, value, 'is beyond the representable dates');
    return date;
  }
  if (typeof value !== 'string' || !DATE_TIME.test(value)) {
    throw invalid(field, value, 'is not a timestamp (Unix seconds or milliseconds, or ISO 8601)');
  }
  const date = parseWrittenDateTime(value);
  if (!date) throw invalid(field, value, 'is not a valid date and time');
  return date;
}

function parseDeviceId(value: Scalar, field: string): string {
  if (typeof value !== 'string') throw invalid(field, value, 'is not a string');
  if (value.length > MAX_DEVICE_ID_LENGTH) {
    throw invalid(field, value, `is longer than ${MAX_DEVICE_ID_LENGTH} characters`);
  }
  return storable(value, field);
}

function parseLatitude(value: Scalar, field: string): number {
  return parseNumber(value, field, { min: -90, max: 90 });
}

function parseLongitude(value: Scalar, field: string): number {
  return parseNumber(value, field, { min: -180, max: 180 });
}

/** Finds a value by its name in any letter case; undefined when absent. */
type Lookup = (name: string) => Scalar | undefined;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COMMAND_STATUSES = ['ok', 'failed'] as const;

/**
 * `cmdid` and `cmdstatus`, which come together or not at all. `prefix` as for readReadings.
 */
function readAcknowledgement(lookup: Lookup, prefix = ''): CommandAcknowledgement | undefined {
  const id = lookup('cmdid');
  const status = lookup('cmdstatus');
  if (id === undefined && status === undefined) return undefined;
  if (id === undefined)
    throw new OsmAndParseError(`${prefix}cmdid`, `${prefix}cmdid: is required with cmdstatus`);
  if (status === undefined) {
    throw new OsmAndParseError(`${prefix}cmdstatus`, `${prefix}cmdstatus: is required with cmdid`);
  }
  if (typeof id !== 'string' || !UUID.test(id))
    throw invalid(`${prefix}cmdid`, id, 'is not a command id (a UUID)');
  const normalized = String(status).toLowerCase();
  const known = COMMAND_STATUSES.find((candidate) => candidate === normalized);
  if (known === undefined) throw invalid(`${prefix}cmdstatus`, status, 'is not ok or failed');
  return { commandId: id.toLowerCase(), status: known };
}

/**
 * The optional readings both variants share (query/form fields, and `extras` of the JSON variant),
 * under their documented names (matched in any letter case). When several names feed one reading, the
 * first one present wins.
 */
interface ReadingField {
  names: readonly string[];
  read(value: Scalar, field: string): PositionReadingsV1;
}

const READING_FIELDS: readonly ReadingField[] = [
  { names: ['speed'], read: (v, f) => ({ speedKmh: parseNumber(v, f, { min: 0 }) * KMH_PER_KNOT }) },
  { names: ['bearing', 'heading'], read: (v, f) => ({ course: normalizeCourse(parseNumber(v, f)) }) },
  { names: ['altitude'], read: (v, f) => ({ altitudeM: parseNumber(v, f) }) },
  { names: ['accuracy'], read: (v, f) => ({ accuracyM: parseNumber(v, f, { min: 0 }) }) },
  { names: ['hdop'], read: (v, f) => ({ hdop: parseNumber(v, f, { min: 0 }) }) },
  { names: ['batt'], read: (v, f) => ({ batteryLevel: parseNumber(v, f, { min: 0, max: 100 }) }) },
  { names: ['charge'], read: (v, f) => ({ charging: parseBoolean(v, f) }) },
  { names: ['ignition'], read: (v, f) => ({ ignition: parseBoolean(v, f) }) },
  { names: ['motion'], read: (v, f) => ({ motion: parseBoolean(v, f) }) },
  { names: ['lock'], read: (v, f) => ({ doorLocked: parseBoolean(v, f) }) },
  { names: ['engine'], read: (v, f) => ({ engineEnabled: parseBoolean(v, f) }) },
  { names: ['odometer'], read: (v, f) => ({ odometerM: parseNumber(v, f, { min: 0 }) }) },
  { names: ['hours'], read: (v, f) => ({ engineHours: parseNumber(v, f, { min: 0 }) }) },
  { names: ['power'], read: (v, f) => ({ powerV: parseNumber(v, f) }) },
  { names: ['fuel'], read: (v, f) => ({ fuelLevel: parseNumber(v, f, { min: 0, max: 100 }) }) },
  { names: ['fuelvolume'], read: (v, f) => ({ fuelVolumeL: parseNumber(v, f, { min: 0 }) }) },
  { names: ['sat'], read: (v, f) => ({ satellites: parseInteger(v, f, { min: 0 }) }) },
  { names: ['rssi'], read: (v, f) => ({ signal: parseInteger(v, f, { min: 0, max: 5 }) }) },
  { names: ['driver'], read: (v, f) => ({ driver: parseText(v, f, MAX_DRIVER_LENGTH) }) },
  { names: ['dtcs'], read: (v, f) => parseDtcs(v, f) },
  { names: ['chargerpower'], read: (v, f) => ({ chargerPowerKw: parseNumber(v, f) }) },
  { names: ['chargingenergy'], read: (v, f) => ({ chargingEnergyKwh: parseNumber(v, f) }) },
  { names: ['range'], read: (v, f) => ({ batteryRangeKm: parseNumber(v, f, { min: 0 }) }) },
  // OBD readings under Traccar's attribute keys (`rpm`, `coolantTemp`), which its OsmAnd decoder
  // passes through: a tracker set up for Traccar needs no change. The coolant bounds are wider than
  // any engine reaches; a value outside them is a unit or sensor mistake (Fahrenheit, an error code).
  { names: ['rpm'], read: (v, f) => ({ rpm: parseNumber(v, f, { min: 0 }) }) },
  {
    names: ['coolantTemp'],
    read: (v, f) => ({ coolantTempC: parseNumber(v, f, { min: -60, max: 250 }) }),
  },
];

/** `p0300, ,c1234` → ['P0300', 'C1234']; a list with no codes at all is no reading. */
function parseDtcs(value: Scalar, field: string): PositionReadingsV1 {
  const codes = parseText(value, field, Number.MAX_SAFE_INTEGER)
    .split(',')
    .map((code) => code.trim().toUpperCase())
    .filter((code) => code !== '');
  return codes.length > 0 ? { dtcCodes: codes } : {};
}

/**
 * A reading converted to the platform's units must still be a finite number: `speed=1e308` knots is a
 * finite input and an infinite speed, which no consumer could store.
 */
function requireFinite(readings: PositionReadingsV1, field: string, value: Scalar): PositionReadingsV1 {
  for (const reading of Object.values(readings)) {
    if (typeof reading === 'number' && !Number.isFinite(reading)) {
      throw invalid(field, value, "is too large once converted to the platform's units");
    }
  }
  return readings;
}

/** `prefix` turns a field's documented name into the one named in errors (e.g. `location.extras.fuel`). */
function readReadings(lookup: Lookup, prefix = ''): PositionReadingsV1 {
  const readings: PositionReadingsV1 = {};
  for (const { names, read } of READING_FIELDS) {
    const name = names.find((candidate) => lookup(candidate) !== undefined);
    if (name === undefined) continue;
    const field = `${prefix}${name}`;
    const value = lookup(name) as Scalar;
    Object.assign(readings, requireFinite(read(value, field), field, value));
  }
  return readings;
}

/**
 * Query/form fields by lower-cased name. A repeated parameter counts with its last value, also when
 * it was repeated in another letter case; an empty value counts as absent.
 */
function indexFields(fields: Record<string, string | string[] | undefined>): Lookup {
  const index = new Map<string, string>();
  for (const [name, raw] of Object.entries(fields)) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (typeof value === 'string') index.set(name.toLowerCase(), value.trim());
  }
  return (name) => {
    const value = index.get(name.toLowerCase());
    return value === '' ? undefined : value;
  };
}

/** Query/form fields as they arrive, a repeated one as a list. */
export type OsmAndFields = Record<string, string | string[] | undefined>;

/** The device secret parameter (docs/device-settings.md): in the query, the form or the JSON body. */
const SECRET_FIELD = 'secret';

/** `secret` as text, or nothing: no value is a secret of the wrong type, it is only right or wrong. */
function optionalSecret(value: Scalar | undefined): { secret?: string } {
  return value === undefined ? {} : { secret: String(value) };
}

/** Parses a GET query string or POST form body (already split into fields) of the OsmAnd protocol. */
export function parseOsmAndFields(fields: OsmAndFields): DeviceReport {
  const lookup = indexFields(fields);
  const idField = lookup('id') !== undefined ? 'id' : 'deviceid';
  const id = lookup(idField);
  if (id === undefined) throw missing('id');
  const timestamp = lookup('timestamp');
  const valid = lookup('valid');
  return {
    deviceId: parseDeviceId(id, idField),
    fixTime: timestamp === undefined ? undefined : parseTimestamp(timestamp, 'timestamp'),
    ...readCoordinates(lookup),
    // The fix's own validity, as Traccar's OsmAnd decoder reads it: `valid=false` is not a position.
    ...(valid === undefined ? {} : { valid: parseBoolean(valid, 'valid') }),
    readings: readReadings(lookup),
    ...optionalAcknowledgement(readAcknowledgement(lookup)),
    ...optionalSecret(lookup(SECRET_FIELD)),
  };
}

/** No `acknowledgement` key at all when the report has none, like an absent reading. */
function optionalAcknowledgement(acknowledgement: CommandAcknowledgement | undefined): {
  acknowledgement?: CommandAcknowledgement;
} {
  return acknowledgement === undefined ? {} : { acknowledgement };
}

/** `lat` + `lon` when either is sent, else `location=lat,lon`. */
function readCoordinates(lookup: Lookup): { lat: number; lng: number } {
  const lat = lookup('lat');
  const lon = lookup('lon');
  const location = lookup('location');
  if (lat === undefined && lon === undefined && location !== undefined) {
    const parts = String(location).split(',');
    if (parts.length !== 2) throw invalid('location', location, 'is not "lat,lon"');
    return {
      lat: parseLatitude(parts[0].trim(), 'location'),
      lng: parseLongitude(parts[1].trim(), 'location'),
    };
  }
  if (lat === undefined) throw missing('lat');
  if (lon === undefined) throw missing('lon');
  return { lat: parseLatitude(lat, 'lat'), lng: parseLongitude(lon, 'lon') };
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireObject(value: unknown, field: string): JsonObject {
  if (value === undefined || value === null) throw missing(field);
  if (!isObject(value)) throw invalid(field, value, 'is not an object');
  return value;
}

function optionalObject(value: unknown, field: string): JsonObject | undefined {
  return value === undefined || value === null ? undefined : requireObject(value, field);
}

/** A JSON member as a scalar; null and blank strings count as absent, like empty query values. */
function jsonScalar(value: unknown, field: string): Scalar | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  throw invalid(field, value, 'is not a string, number or boolean');
}

function requireScalar(value: unknown, field: string): Scalar {
  const scalar = jsonScalar(value, field);
  if (scalar === undefined) throw missing(field);
  return scalar;
}

/** `extras` by lower-cased key; only the reading fields and `cmdid`/`cmdstatus` are read from it. */
function indexExtras(extras: JsonObject | undefined, prefix: string): Lookup {
  const index = new Map<string, unknown>();
  for (const [name, value] of Object.entries(extras ?? {})) index.set(name.toLowerCase(), value);
  return (name) => jsonScalar(index.get(name.toLowerCase()), `${prefix}${name}`);
}

/**
 * Parses the JSON body of Traccar Client 9 and later: one location object in the shape of the
 * background-geolocation library it uses. The location's own measurements win over `extras`. The
 * device secret is the body's `secret` member, else the query's `secret` (such an app posts to the
 * server URL it was given, query string included).
 */
export function parseOsmAndJson(body: unknown, query: OsmAndFields = {}): DeviceReport {
  if (!isObject(body)) throw invalid('body', body, 'is not a JSON object');
  const deviceId = parseDeviceId(requireScalar(body.device_id, 'device_id'), 'device_id');
  if (Array.isArray(body.location)) {
    throw new OsmAndParseError('location', 'location: is an array; send one location object per request');
  }
  const location = requireObject(body.location, 'location');
  const coords = requireObject(location.coords, 'location.coords');
  const timestamp = jsonScalar(location.timestamp, 'location.timestamp');
  const extras = optionalObject(location.extras, 'location.extras');
  const extrasLookup = indexExtras(extras, 'location.extras.');
  return {
    deviceId,
    fixTime: timestamp === undefined ? undefined : parseTimestamp(timestamp, 'location.timestamp'),
    lat: parseLatitude(
      requireScalar(coords.latitude, 'location.coords.latitude'),
      'location.coords.latitude',
    ),
    lng: parseLongitude(
      requireScalar(coords.longitude, 'location.coords.longitude'),
      'location.coords.longitude',
    ),
    readings: {
      ...readReadings(extrasLookup, 'location.extras.'),
      ...readLocationReadings(location, coords),
    },
    ...optionalAcknowledgement(readAcknowledgement(extrasLookup, 'location.extras.')),
    ...optionalSecret(jsonScalar(body[SECRET_FIELD], SECRET_FIELD) ?? indexFields(query)(SECRET_FIELD)),
  };
}

/** The measurements the location object carries itself; the app's -1 means "unknown". */
function readLocationReadings(location: JsonObject, coords: JsonObject): PositionReadingsV1 {
  const readings: PositionReadingsV1 = {};
  const read = (
    object: JsonObject,
    key: string,
    path: string,
    apply: (value: Scalar, field: string) => void,
  ) => {
    const value = jsonScalar(object[key], `${path}.${key}`);
    if (value !== undefined) apply(value, `${path}.${key}`);
  };
  read(coords, 'speed', 'location.coords', (v, f) => {
    const metresPerSecond = parseNumber(v, f);
    if (metresPerSecond >= 0) {
      Object.assign(readings, requireFinite({ speedKmh: metresPerSecond * KMH_PER_METRE_PER_SECOND }, f, v));
    }
  });
  read(coords, 'heading', 'location.coords', (v, f) => {
    const degrees = parseNumber(v, f);
    if (degrees >= 0) readings.course = normalizeCourse(degrees);
  });
  read(coords, 'altitude', 'location.coords', (v, f) => (readings.altitudeM = parseNumber(v, f)));
  read(coords, 'accuracy', 'location.coords', (v, f) => (readings.accuracyM = parseNumber(v, f, { min: 0 })));
  read(location, 'is_moving', 'location', (v, f) => (readings.motion = parseBoolean(v, f)));
  read(location, 'odometer', 'location', (v, f) => (readings.odometerM = parseNumber(v, f, { min: 0 })));
  const battery = optionalObject(location.battery, 'location.battery');
  if (battery) {
    read(battery, 'level', 'location.battery', (v, f) => {
      const fraction = parseNumber(v, f);
      if (fraction === -1) return;
      if (fraction < 0 || fraction > 1) throw invalid(f, v, 'is outside 0..1');
      readings.batteryLevel = Math.round(fraction * 1000) / 10;
    });
    read(battery, 'is_charging', 'location.battery', (v, f) => (readings.charging = parseBoolean(v, f)));
  }
  return readings;
}
