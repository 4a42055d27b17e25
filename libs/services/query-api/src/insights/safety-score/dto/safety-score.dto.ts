import { utcWithZ } from '@fleet/formats';
import { IdInput, IntegerInput } from '@fleet/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { VehicleIdentity } from '../../../position-records/position-view';
import { SafetyScoreResult } from '../safety-score';
import { ScoreIntervalType, ScoreWindow } from '../score-window';

const DATE_TEXT =
  'ISO 8601 with Z or an offset, or a wall-clock `yyyy-MM-dd[ HH:mm:ss]` in the company time zone';

/** The window inputs of both versions. */
export class ScoreWindowQuery {
  @ApiPropertyOptional({ description: `Start of the window: ${DATE_TEXT}` })
  @IsOptional()
  @IsString()
  start?: string;

  @ApiPropertyOptional({ description: `End of the window: ${DATE_TEXT}` })
  @IsOptional()
  @IsString()
  finish?: string;

  @ApiPropertyOptional({
    type: 'integer',
    enum: [1, 2, 3, 4],
    default: 1,
    description:
      '1 instant range [start, finish] (default: the last 24 hours); 2 the local day of finish (default today); ' +
      '3 the three local days ending with it; 4 the seven local days ending with it (docs/insights.md)',
  })
  @IsOptional()
  @IntegerInput(1, 4)
  intervalType: ScoreIntervalType = ScoreIntervalType.InstantRange;
}

/** V1 `GetSafetyScore`: the vehicle as `vehicleId`, or by its former name `id`. */
export class LegacySafetyScoreQuery extends ScoreWindowQuery {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'Vehicle id (required unless `id` is given)',
  })
  @IsOptional()
  @IdInput()
  vehicleId?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'Former name of `vehicleId`, still accepted',
  })
  @IsOptional()
  @IdInput()
  id?: number;
}

/** The figures of a score, as both versions name them (V1 capitalises the first letter). */
class SafetyScoreFigures {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 0,
    maximum: 100,
    description: 'null: no day drove 1 km or more',
  })
  score!: number | null;

  @ApiProperty({ description: 'Distance driven in the window, km' })
  distanceKm!: number;

  @ApiProperty({ type: 'integer', description: 'Seconds driving (moving) in the window' })
  drivingSeconds!: number;

  @ApiProperty({ type: 'integer', description: 'Seconds standing with the ignition on' })
  idleSeconds!: number;

  @ApiProperty({ type: 'integer', description: 'Seconds driving above the speeding limit (100 km/h)' })
  speedingSeconds!: number;

  @ApiProperty({ type: 'integer', description: 'Trips that started in the window' })
  tripCount!: number;

  @ApiProperty({ type: 'integer' })
  harshBrakingCount!: number;

  @ApiProperty({ type: 'integer' })
  harshAccelerationCount!: number;

  @ApiProperty({ type: 'integer' })
  harshCorneringCount!: number;

  @ApiProperty({ type: 'integer', description: 'Speeding episodes' })
  speedingCount!: number;

  @ApiProperty({ type: 'integer', description: 'Events of any kind rated severe' })
  severeEventCount!: number;

  @ApiProperty({ type: 'integer', description: 'Local days of the window that count (1 km or more driven)' })
  scoredDays!: number;

  @ApiProperty({ description: 'Distance of the days that count, km' })
  scoredDistanceKm!: number;

  @ApiProperty({ description: 'Weighted harsh events per 100 km (over at least 100 km)' })
  weightedEventsPer100Km!: number;

  @ApiProperty({ description: 'Percent of driving time over the speeding limit, days that count' })
  speedingPercent!: number;

  @ApiProperty({ description: 'Points subtracted for harsh events' })
  harshEventPenalty!: number;

  @ApiProperty({ description: 'Points subtracted for speeding' })
  speedingPenalty!: number;
}

export class SafetyScoreV2 extends SafetyScoreFigures {
  @ApiProperty({ type: 'integer' })
  vehicleId!: number;

  @ApiProperty()
  vehicleName!: string;

  @ApiProperty({ type: 'integer', enum: [1, 2, 3, 4] })
  intervalType!: number;

  @ApiProperty({ format: 'date-time', description: 'Window start (UTC)' })
  start!: string;

  @ApiProperty({ format: 'date-time', description: 'Window end (UTC, exclusive)' })
  finish!: string;

  @ApiProperty({ description: 'The IANA zone local days were counted in (the company’s)' })
  timeZone!: string;
}

/** What a score was computed for. */
export interface ScoreSubject {
  vehicle: VehicleIdentity;
  intervalType: ScoreIntervalType;
  window: ScoreWindow;
  timeZone: string;
  tripCount: number;
}

export function toSafetyScoreV2(subject: ScoreSubject, result: SafetyScoreResult): SafetyScoreV2 {
  return {
    vehicleId: subject.vehicle.id,
    vehicleName: subject.vehicle.name,
    intervalType: subject.intervalType,
    start: utcWithZ(subject.window.start),
    finish: utcWithZ(subject.window.finish),
    timeZone: subject.timeZone,
    ...result,
    tripCount: subject.tripCount,
  };
}

/** V1: `Status: "OK"` and the V2 fields with their first letter capitalised. */
export class LegacySafetyScoreV1 {
  @ApiProperty({ example: 'OK' })
  Status!: string;

  @ApiProperty({ type: 'integer' }) VehicleId!: number;
  @ApiProperty() VehicleName!: string;
  @ApiProperty({ type: 'integer' }) IntervalType!: number;
  @ApiProperty({ format: 'date-time' }) Start!: string;
  @ApiProperty({ format: 'date-time' }) Finish!: string;
  @ApiProperty() TimeZone!: string;
  @ApiProperty({ type: 'integer', nullable: true }) Score!: number | null;
  @ApiProperty() DistanceKm!: number;
  @ApiProperty({ type: 'integer' }) DrivingSeconds!: number;
  @ApiProperty({ type: 'integer' }) IdleSeconds!: number;
  @ApiProperty({ type: 'integer' }) SpeedingSeconds!: number;
  @ApiProperty({ type: 'integer' }) TripCount!: number;
  @ApiProperty({ type: 'integer' }) HarshBrakingCount!: number;
  @ApiProperty({ type: 'integer' }) HarshAccelerationCount!: number;
  @ApiProperty({ type: 'integer' }) HarshCorneringCount!: number;
  @ApiProperty({ type: 'integer' }) SpeedingCount!: number;
  @ApiProperty({ type: 'integer' }) SevereEventCount!: number;
  @ApiProperty({ type: 'integer' }) ScoredDays!: number;
  @ApiProperty() ScoredDistanceKm!: number;
  @ApiProperty() WeightedEventsPer100Km!: number;
  @ApiProperty() SpeedingPercent!: number;
  @ApiProperty() HarshEventPenalty!: number;
  @ApiProperty() SpeedingPenalty!: number;
}

export function toSafetyScoreV1(subject: ScoreSubject, result: SafetyScoreResult): LegacySafetyScoreV1 {
  const v2 = toSafetyScoreV2(subject, result);
  const v1: Record<string, unknown> = { Status: 'OK' };
  for (const [key, value] of Object.entries(v2)) v1[key[0].toUpperCase() + key.slice(1)] = value;
  return v1 as unknown as LegacySafetyScoreV1;
}
