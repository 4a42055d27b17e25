import {
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Min,
} from 'class-validator';

/**
 * The current state of one vehicle of the registry (owned by query-api).
 * Published on a compacted topic keyed by vehicle id: the latest snapshot per key is the truth,
 * and a consumer that starts from the beginning rebuilds its whole projection.
 */
export class VehicleSnapshotV1 {
  @IsInt()
  @Min(1)
  vehicleId!: number;

  @IsString()
  name!: string;

  @IsString()
  imei!: string;

  @IsOptional()
  @IsString()
  vin?: string | null;

  /** Companies the vehicle is mapped to. */
  @IsArray()
  @ArrayUnique()
  @IsInt({ each: true })
  companyIds!: number[];

  /**
   * Free labels the registry keeps for the vehicle (`refrigerated`, `north-depot`); alert
   * configurations cover vehicles by tag. Absent from snapshots published before tags existed.
   */
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsString({ each: true })
  tags?: string[];

  /** A removed vehicle stays as a tombstone snapshot so that projections drop it. */
  @IsBoolean()
  deleted!: boolean;

  /** Monotonic per vehicle: consumers ignore a snapshot older than the one they hold. */
  @IsInt()
  @Min(0)
  version!: number;

  @IsISO8601({ strict: true })
  updatedAt!: string;
}
