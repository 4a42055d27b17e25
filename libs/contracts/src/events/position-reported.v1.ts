import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsLatitude,
  IsLongitude,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { instantMs, IsInstantText } from '../instant';
import { IsStorableText } from '../text';

/** Events a tracker reports it detected itself (Teltonika IO 252/253, GT06 alarm packets). */
export const deviceEventTypes = [
  'harshAcceleration',
  'harshBraking',
  'harshCornering',
  'powerCut',
  'sos',
  'vibration',
  'overspeed',
] as const;
export type DeviceEventType = (typeof deviceEventTypes)[number];

/** How a position came in: a tracker protocol's port, or an integrator's batch endpoint. */
export const reportProtocols = ['osmand', 'teltonika', 'gt06', 'batch'] as const;
export type ReportProtocol = (typeof reportProtocols)[number];

/**
 * What a tracker measured at one fix, in the platform's units. Every reading is optional: trackers
 * send what they have, and an absent reading stays absent (it never becomes 0 or false).
 * docs/telemetry.md lists where each field comes from in the OsmAnd protocol.
 */
export class PositionReadingsV1 {
  /** Ground speed, km/h. */
  @IsOptional()
  @IsNumber()
  @Min(0)
  speedKmh?: number;

  /** Heading, whole degrees clockwise from true north, 0–359. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(359)
  course?: number;

  /** Metres above sea level. */
  @IsOptional()
  @IsNumber()
  altitudeM?: number;

  /** Horizontal accuracy radius, metres. */
  @IsOptional()
  @IsNumber()
  @Min(0)
  accuracyM?: number;

  /** Horizontal dilution of precision (unitless). */
  @IsOptional()
  @IsNumber()
  @Min(0)
  hdop?: number;

  /** Satellites used in the fix. */
  @IsOptional()
  @IsInt()
  @Min(0)
  satellites?: number;

  /** Cellular signal strength as the tracker reports it: bars, 0 (none) to 5 (excellent). */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5)
  signal?: number;

  @IsOptional()
  @IsBoolean()
  ignition?: boolean;

  /** The tracker's own motion flag (accelerometer or app), when it has one. */
  @IsOptional()
  @IsBoolean()
  motion?: boolean;

  /** Total distance the vehicle has driven, metres. */
  @IsOptional()
  @IsNumber()
  @Min(0)
  odometerM?: number;

  /** Total engine running time, hours. */
  @IsOptional()
  @IsNumber()
  @Min(0)
  engineHours?: number;

  /** Vehicle supply voltage, volts. */
  @IsOptional()
  @IsNumber()
  powerV?: number;

  /** Battery state of charge, percent 0–100 (the tracker's, or the traction battery's on an EV). */
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(100)
  batteryLevel?: number;

  /** Whether the battery is being charged. */
  @IsOptional()
  @IsBoolean()
  charging?: boolean;

  /** EV charger power, kW. */
  @IsOptional()
  @IsNumber()
  chargerPowerKw?: number;

  /** EV energy charged in the current session, kWh. */
  @IsOptional()
  @IsNumber()
  chargingEnergyKwh?: number;

  /** EV remaining range, km. */
  @IsOptional()
  @IsNumber()
  @Min(0)
  batteryRangeKm?: number;

  /** Fuel level, percent of the tank 0–100. */
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(100)
  fuelLevel?: number;

  /** Fuel in the tank, litres. */
  @IsOptional()
  @IsNumber()
  @Min(0)
  fuelVolumeL?: number;

  @IsOptional()
  @IsBoolean()
  doorLocked?: boolean;

  /** False when the engine is immobilised. */
  @IsOptional()
  @IsBoolean()
  engineEnabled?: boolean;

  /** Engine speed, revolutions per minute (OBD). */
  @IsOptional()
  @IsNumber()
  @Min(0)
  rpm?: number;

  /** Engine coolant temperature, degrees Celsius (OBD). */
  @IsOptional()
  @IsNumber()
  coolantTempC?: number;

  /** Driver identifier (iButton, RFID card or name). */
  @IsOptional()
  @IsString()
  @IsStorableText()
  @MaxLength(128)
  driver?: string;

  /** The vehicle's identification number, as the tracker read it from the vehicle (OBD, CAN). */
  @IsOptional()
  @IsString()
  @IsStorableText()
  @MaxLength(32)
  vin?: string;

  /** The tracker's own backup battery, volts. */
  @IsOptional()
  @IsNumber()
  deviceBatteryV?: number;

  /**
   * Events the tracker itself detected at this fix (its accelerometer, its power input, its SOS
   * button), which the alert engine takes where present instead of inferring them (docs/trackers.md).
   */
  @IsOptional()
  @IsArray()
  @IsIn(deviceEventTypes, { each: true })
  deviceEvents?: DeviceEventType[];

  /** Active diagnostic trouble codes, e.g. `P0300`. */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @IsStorableText({ each: true })
  dtcCodes?: string[];

  /** How the report came in (telemetry-ingest sets it; events of older producers have none). */
  @IsOptional()
  @IsIn(reportProtocols)
  protocol?: ReportProtocol;
}

/**
 * A normalized position from a tracker, accepted by telemetry-ingest.
 * Keyed by vehicle id so that one vehicle's positions stay in order.
 * `eventId` is assigned at acceptance and is what consumers de-duplicate on.
 */
export class PositionReportedV1 extends PositionReadingsV1 {
  @IsUUID()
  eventId!: string;

  @IsInt()
  @Min(1)
  vehicleId!: number;

  @IsString()
  @IsStorableText()
  imei!: string;

  /** When the tracker took the fix (UTC, ISO 8601). */
  @IsInstantText()
  fixTime!: string;

  /** When telemetry-ingest accepted it (UTC, ISO 8601). */
  @IsInstantText()
  receivedAt!: string;

  @IsLatitude()
  lat!: number;

  @IsLongitude()
  lng!: number;
}

/**
 * A position's place in its vehicle's order, in epoch milliseconds: its fix time, or its arrival when
 * the device's clock put the fix ahead of it (within INGEST_CLOCK_SKEW_SECONDS; further ahead is
 * refused). Every consumer that decides whether a fix is newer than what it holds (the last position,
 * the alert state, trips and insights) compares this, never the fix time alone, so that a fix ahead
 * of its time cannot hold that state until its time comes (issue 54). PostgreSQL's form of it is
 * `LEAST(fix_time, received_at)`. Reads the canonical texts with `instantMs`: no `Date` per position.
 */
export function fixOrderMs(position: { fixTime: string; receivedAt: string }): number {
  const fixMs = instantMs(position.fixTime);
  const receivedMs = instantMs(position.receivedAt);
  return fixMs < receivedMs ? fixMs : receivedMs;
}
