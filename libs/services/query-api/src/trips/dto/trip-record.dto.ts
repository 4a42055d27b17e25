import { encodePolyline } from '@fleet/geo';
import { ApiProperty } from '@nestjs/swagger';
import {
  isoDuration,
  userTimeWithOffset,
  userTimeWithoutOffset,
  utcWithoutOffset,
  utcWithZ,
} from '@fleet/formats';
import type { StoredTrip } from '../stored-trip';

export class TripPointRecord {
  @ApiProperty({ type: 'integer', description: 'Unix seconds of the fix' }) id!: number;
  @ApiProperty() lat!: number;
  @ApiProperty() lng!: number;
  @ApiProperty({ description: 'UTC' }) utcTime!: string;
}

/** A trip of the replay routes (spec, section Trip). V1: user times with offset, UTC times with Z. */
export class TripRecordV1 {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ nullable: true, type: 'number', description: 'metres' }) distance!: number | null;
  @ApiProperty({ description: 'ISO 8601 duration', example: 'PT25M10S' }) duration!: string;
  @ApiProperty({ nullable: true, type: 'string' }) startAddress!: string | null;
  @ApiProperty({ nullable: true, type: 'string' }) endAddress!: string | null;
  @ApiProperty({ example: '2024-03-31T12:00:00+02:00' }) startTimeUser!: string;
  @ApiProperty({ example: '2024-03-31T12:25:10+02:00' }) endTimeUser!: string;
  @ApiProperty({ description: 'Encoded polyline (precision 5) of the points' }) encoded!: string;
  @ApiProperty({ format: 'uri', description: 'Static map image of the path' }) url!: string;
  @ApiProperty({ type: [TripPointRecord] }) points!: TripPointRecord[];
}

/** V2: as V1, plus UTC start and end; all times without offset. */
export class TripRecordV2 extends TripRecordV1 {
  @ApiProperty({ description: 'UTC, without offset' }) startTime!: string;
  @ApiProperty({ description: 'UTC, without offset' }) endTime!: string;
}

export interface TripContext {
  timeZone: string;
  staticMapUrlTemplate: string;
  addressOf(lat: number, lng: number): Promise<string | null>;
}

async function common(trip: StoredTrip, context: TripContext, utc: (instant: Date) => string) {
  const encoded = encodePolyline(trip.points);
  const first = trip.points[0];
  const last = trip.points[trip.points.length - 1];
  const [startAddress, endAddress] = await Promise.all([
    first ? context.addressOf(first.lat, first.lng) : null,
    last ? context.addressOf(last.lat, last.lng) : null,
  ]);
  return {
    id: trip.id,
    distance: Math.round(trip.distanceM),
    duration: isoDuration(Math.round((trip.endTime.getTime() - trip.startTime.getTime()) / 1000)),
    startAddress,
    endAddress,
    encoded,
    url: context.staticMapUrlTemplate.replace('{encoded}', encodeURIComponent(encoded)),
    points: trip.points.map((point) => ({
      id: Math.floor(point.fixTime.getTime() / 1000),
      lat: point.lat,
      lng: point.lng,
      utcTime: utc(point.fixTime),
    })),
  };
}

export async function toTripV1(trip: StoredTrip, context: TripContext): Promise<TripRecordV1> {
  return {
    ...(await common(trip, context, utcWithZ)),
    startTimeUser: userTimeWithOffset(trip.startTime, context.timeZone),
    endTimeUser: userTimeWithOffset(trip.endTime, context.timeZone),
  };
}

export async function toTripV2(trip: StoredTrip, context: TripContext): Promise<TripRecordV2> {
  return {
    ...(await common(trip, context, utcWithoutOffset)),
    startTime: utcWithoutOffset(trip.startTime),
    endTime: utcWithoutOffset(trip.endTime),
    startTimeUser: userTimeWithoutOffset(trip.startTime, context.timeZone),
    endTimeUser: userTimeWithoutOffset(trip.endTime, context.timeZone),
  };
}
