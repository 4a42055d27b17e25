import {
  IsBoolean,
  IsInt,
  IsISO8601,
  IsLatitude,
  IsLongitude,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  Min,
} from 'class-validator';

/**
 * A normalized position from a tracker, accepted by telemetry-ingest.
 * Keyed by vehicle id so that one vehicle's positions stay in order.
 * `eventId` is assigned at acceptance and is what consumers de-duplicate on.
 */
export class PositionReportedV1 {
  @IsUUID()
  eventId!: string;

  @IsInt()
  @Min(1)
  vehicleId!: number;

  @IsString()
  imei!: string;

  /** When the tracker took the fix (UTC, ISO 8601). */
  @IsISO8601({ strict: true })
  fixTime!: string;

  /** When telemetry-ingest accepted it (UTC, ISO 8601). */
  @IsISO8601({ strict: true })
  receivedAt!: string;

  @IsLatitude()
  lat!: number;

  @IsLongitude()
  lng!: number;

  @IsOptional()
  @IsNumber()
  @Min(0)
  speedKmh?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(359)
  course?: number;

  @IsOptional()
  @IsNumber()
  altitudeM?: number;

  @IsOptional()
  @IsBoolean()
  ignition?: boolean;
}
