import { isBoolean, isInt, isLatitude, isLongitude, isNumber, isUUID, maxLength } from 'class-validator';
import { isCanonicalInstant, isInstantText } from '../instant';
import { isStorableText } from '../text';
import { deviceEventTypes, PositionReportedV1, reportProtocols } from './position-reported.v1';

type Check = (value: unknown) => boolean;

const number: Check = (value) => isNumber(value);
const atLeast =
  (min: number): Check =>
  (value) =>
    isNumber(value) && (value as number) >= min;
const between =
  (min: number, max: number): Check =>
  (value) =>
    isNumber(value) && (value as number) >= min && (value as number) <= max;
const intBetween =
  (min: number, max = Infinity): Check =>
  (value) =>
    isInt(value) && (value as number) >= min && (value as number) <= max;
const bool: Check = (value) => isBoolean(value);

/**
 * The contracts' `isInstantText`, with a fast path: a canonical instant whose fields name a real date
 * and time is one the general check would accept too (at a small fraction of the cost: two of these
 * per position event, on every produce and consume). Anything else gets the general check, so the
 * answers stay the same.
 */
export const isStrictInstant: Check = (value) => isCanonicalInstant(value) || isInstantText(value);

/**
 * isLatitude / isLongitude, with a fast path for a number in range. class-validator tests the number's
 * string form against a pattern, which has no exponent: from 1e-7 down, `String(n)` is in exponent
 * form and is refused, so such numbers take the general path and get the same answer.
 */
const coordinate =
  (limit: number, general: (value: string) => boolean): Check =>
  (value) =>
    typeof value === 'number' && value >= -limit && value <= limit && (value === 0 || Math.abs(value) >= 1e-6)
      ? true
      : general(value as string);

/** isLatitude, with the fast path for numbers. */
export const isLatitudeValue = coordinate(90, isLatitude);
/** isLongitude, with the fast path for numbers. */
export const isLongitudeValue = coordinate(180, isLongitude);

/**
 * The decorators of PositionReportedV1, as plain predicates (the same class-validator functions the
 * decorators call). The position topic carries thousands of events a second, and class-validator's
 * metadata walk costs about 80 µs an event; this costs a few. position-reported.check.spec.ts keeps
 * the two in agreement on generated good and bad events.
 */
const required: Record<string, Check> = {
  eventId: (value) => isUUID(value),
  vehicleId: intBetween(1),
  imei: isStorableText,
  fixTime: isStrictInstant,
  receivedAt: isStrictInstant,
  lat: isLatitudeValue,
  lng: isLongitudeValue,
};

const optional: Record<string, Check> = {
  speedKmh: atLeast(0),
  course: intBetween(0, 359),
  altitudeM: number,
  accuracyM: atLeast(0),
  hdop: atLeast(0),
  satellites: intBetween(0),
  signal: intBetween(0, 5),
  ignition: bool,
  motion: bool,
  odometerM: atLeast(0),
  engineHours: atLeast(0),
  powerV: number,
  batteryLevel: between(0, 100),
  charging: bool,
  chargerPowerKw: number,
  chargingEnergyKwh: number,
  batteryRangeKm: atLeast(0),
  fuelLevel: between(0, 100),
  fuelVolumeL: atLeast(0),
  doorLocked: bool,
  engineEnabled: bool,
  rpm: atLeast(0),
  coolantTempC: number,
  driver: (value) => isStorableText(value) && maxLength(value, 128),
  vin: (value) => isStorableText(value) && maxLength(value, 32),
  deviceBatteryV: number,
  deviceEvents: (value) =>
    Array.isArray(value) && value.every((item) => (deviceEventTypes as readonly unknown[]).includes(item)),
  dtcCodes: (value) => Array.isArray(value) && value.every(isStorableText),
  protocol: (value) => (reportProtocols as readonly unknown[]).includes(value),
};

/**
 * Checks the optional readings of `plain` (the PositionReadingsV1 rules), appending problems named
 * `${path}${field}` and copying valid, present readings into `into`. Shared with ingestion's batch
 * endpoint, which takes readings under the same names.
 */
export function checkReadings(
  plain: Record<string, unknown>,
  problems: string[],
  into: Record<string, unknown>,
  path = '',
): void {
  for (const key in optional) {
    const value = plain[key];
    // IsOptional: null and undefined skip every other rule.
    if (value === undefined || value === null) continue;
    if (!optional[key](value)) problems.push(`${path}${key}: invalid value ${JSON.stringify(value)}`);
    else into[key] = value;
  }
}

/**
 * Checks a decoded position event; returns the problems (empty when valid) and the event with unknown
 * fields dropped, as the class-validator path would (`whitelist`).
 */
export function checkPositionReported(plain: Record<string, unknown>): {
  problems: string[];
  event: PositionReportedV1;
} {
  const problems: string[] = [];
  const event: Record<string, unknown> = {};
  for (const key in required) {
    const value = plain[key];
    if (!required[key](value)) problems.push(`${key}: invalid or missing (${JSON.stringify(value)})`);
    event[key] = value;
  }
  checkReadings(plain, problems, event);
  return { problems, event: event as unknown as PositionReportedV1 };
}
