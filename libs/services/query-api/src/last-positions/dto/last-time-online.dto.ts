import { secondsAgo, utcWithoutOffset, utcWithZ } from '@fleet/formats';
import { ApiProperty } from '@nestjs/swagger';
import { LastSeen } from '../last-positions.service';

export class LastTimeOnlineItem {
  @ApiProperty({ type: 'integer' }) vehicleId!: number;
  @ApiProperty() imei!: string;
  @ApiProperty({ description: 'UTC, without offset', example: '2024-03-31T10:00:00' })
  lastTimeOnlineUtc!: string;
  @ApiProperty({ description: 'seconds since then' }) secondsAgo!: number;
}

export class LegacyLastTimeOnline {
  @ApiProperty({ type: 'integer' }) VehicleId!: number;
  @ApiProperty() IMEI!: string;
  @ApiProperty({ example: '2024-03-31T10:00:00Z' }) LastTimeOnlineUtc!: string;
  @ApiProperty() SecondsAgo!: number;
}

export const toLastTimeOnline = (seen: LastSeen, now: number): LastTimeOnlineItem => ({
  vehicleId: seen.vehicle.id,
  imei: seen.vehicle.imei,
  lastTimeOnlineUtc: utcWithoutOffset(seen.lastSeenAt),
  secondsAgo: secondsAgo(seen.lastSeenAt, now),
});

export const toLegacyLastTimeOnline = (seen: LastSeen, now: number): LegacyLastTimeOnline => ({
  VehicleId: seen.vehicle.id,
  IMEI: seen.vehicle.imei,
  LastTimeOnlineUtc: utcWithZ(seen.lastSeenAt),
  SecondsAgo: secondsAgo(seen.lastSeenAt, now),
});
