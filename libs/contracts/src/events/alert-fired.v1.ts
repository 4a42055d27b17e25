import { Type } from 'class-transformer';
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
  Min,
  ValidateNested,
} from 'class-validator';
import { alertTypeIds } from '../alerts/alert-types';
import { IsInstantText } from '../instant';
import { IsStorableText } from '../text';

/** A reverse-geocoded address in parts, each possibly null (the webhook `Address` object). */
export class AlertAddressV1 {
  @IsOptional() @IsString() @IsStorableText() street!: string | null;
  @IsOptional() @IsString() @IsStorableText() suburb!: string | null;
  @IsOptional() @IsString() @IsStorableText() state!: string | null;
  @IsOptional() @IsString() @IsStorableText() postcode!: string | null;
  @IsOptional() @IsString() @IsStorableText() country!: string | null;
}

/**
 * The type's data (the webhook `Data`), in the catalog's shape for the type: geofence types carry
 * `geofenceName` and `isExit`, ignition types `isStarted`, low battery `voltage` and `threshold` (V),
 * overspeed `speed` and `maxSpeed` (km/h). Other types carry no data (null on the event).
 */
export class AlertDataV1 {
  @IsOptional() @IsString() @IsStorableText() geofenceName?: string;
  @IsOptional() @IsBoolean() isExit?: boolean;
  @IsOptional() @IsBoolean() isStarted?: boolean;
  @IsOptional() @IsNumber() voltage?: number;
  @IsOptional() @IsNumber() threshold?: number;
  @IsOptional() @IsNumber() @Min(0) speed?: number;
  @IsOptional() @IsNumber() @Min(0) maxSpeed?: number;
}

/**
 * An alert that fired, recorded by alert-engine and published with its record (outbox, same
 * transaction), keyed by vehicle id. It carries everything a consumer needs (webhook-dispatcher
 * builds the payload from it) without reading another service.
 */
export class AlertFiredV1 {
  /** Unique per fired alert; consumers de-duplicate on it. */
  @IsUUID()
  eventId!: string;

  /** The alert record's id (with `recordDate`, what the read-state routes take). */
  @IsInt()
  @Min(1)
  recordId!: number;

  /** The configuration that fired (the public `alertId`). */
  @IsInt()
  @Min(1)
  configurationId!: number;

  @IsIn(alertTypeIds)
  alertTypeId!: number;

  /** The company that owns the configuration. */
  @IsInt()
  @Min(1)
  companyId!: number;

  /** The companies above it, nearest first (a global webhook of any of them receives the alert). */
  @IsArray()
  @IsInt({ each: true })
  ancestorCompanyIds!: number[];

  @IsInt()
  @Min(1)
  vehicleId!: number;

  @IsString()
  @IsStorableText()
  vehicleName!: string;

  @IsLatitude()
  lat!: number;

  @IsLongitude()
  lng!: number;

  /** Heading, whole degrees 0–359 (0 when the tracker sent none). */
  @IsInt()
  @Min(0)
  @Max(359)
  course!: number;

  /** The fix time of the position that fired it (UTC). */
  @IsInstantText()
  fixTime!: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => AlertAddressV1)
  address!: AlertAddressV1 | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => AlertDataV1)
  data!: AlertDataV1 | null;

  /**
   * The record's text (what the record routes show as `description`). Optional: producers before the
   * live channels did not send it; readers then show the type's listing name.
   */
  @IsOptional()
  @IsString()
  @IsStorableText()
  description?: string;

  /** The record's one-line address (the record routes' `address`); absent or null when none. */
  @IsOptional()
  @IsString()
  @IsStorableText()
  addressLine?: string | null;
}
