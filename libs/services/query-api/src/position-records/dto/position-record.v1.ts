import { ApiProperty } from '@nestjs/swagger';
import {
  formatDotNet,
  isoDuration,
  networkCoverage,
  roundOrNull,
  satelliteCoverage,
  userTimeWithOffset,
  utcWithZ,
} from '@fleet/formats';
import { PositionView, ViewContext } from '../position-view';

/**
 * Legacy position record of the V1 interface: PascalCase with the spec's spellings (`UserTimeFormated`,
 * `ConnectionStrengh`), UTC times ending in Z, user times with their offset, `Fatigue` as an ISO 8601
 * duration. Units as in V2 (docs/telemetry.md).
 */
export class LegacyPositionV1 {
  @ApiProperty({ type: 'integer', description: 'Unix seconds of the fix (unique per vehicle at up to 1 Hz)' })
  Id!: number;
  @ApiProperty({ example: '2024-03-31T10:00:00Z' }) UtcTime!: string;
  @ApiProperty({ example: '2024-03-31T12:00:00+02:00' }) UserTime!: string;
  @ApiProperty() UserTimeFormated!: string;
  @ApiProperty() Lat!: number;
  @ApiProperty() Lng!: number;
  @ApiProperty({ description: 'km/h' }) Speed!: number;
  @ApiProperty({ type: 'integer' }) Course!: number;
  @ApiProperty({ nullable: true, type: 'boolean' }) Ignition!: boolean | null;
  @ApiProperty({ nullable: true, type: 'number', description: 'km' }) Odometer!: number | null;
  @ApiProperty({ nullable: true, type: 'number' }) Voltage!: number | null;
  @ApiProperty({ description: 'ISO 8601 duration', example: 'PT1H12M30S' }) Fatigue!: string;
  @ApiProperty({ nullable: true, type: 'number' }) EngineHours!: number | null;
  @ApiProperty({ nullable: true, type: 'string' }) SatSignal!: string | null;
  @ApiProperty({ nullable: true, type: 'integer' }) Satellites!: number | null;
  @ApiProperty({ nullable: true, type: 'string' }) ConnectionStrengh!: string | null;
  @ApiProperty({ type: 'integer' }) DeviceId!: number;
  @ApiProperty({ nullable: true, type: 'number' }) IgnitionTime!: number | null;
  @ApiProperty() DeviceName!: string;
  @ApiProperty() IMEI!: string;
  @ApiProperty({ nullable: true, type: 'string' }) Vin!: string | null;
  @ApiProperty({ nullable: true, type: 'string' }) StartMovingTime!: string | null;
  @ApiProperty({ nullable: true, type: 'string' }) StartMovingTimeUser!: string | null;
  @ApiProperty({ nullable: true, type: 'string' }) LastMovementTime!: string | null;
  @ApiProperty({ nullable: true, type: 'string' }) LastMovementTimeUser!: string | null;
  @ApiProperty({ nullable: true, type: 'string' }) LastMovementTimeUserFormated!: string | null;
  @ApiProperty() DrivingTime!: number;
  @ApiProperty({ nullable: true, type: 'string' }) Driver!: string | null;
  @ApiProperty({ nullable: true, type: 'number' }) FuelLevel!: number | null;
  @ApiProperty({ nullable: true, type: 'string', description: 'active trouble codes, comma-separated' })
  DTC!: string | null;
  @ApiProperty({ nullable: true, type: 'boolean' }) IsDoorLocked!: boolean | null;
  @ApiProperty({ nullable: true, type: 'string' }) Address!: string | null;
  @ApiProperty({ nullable: true, type: 'boolean' }) EngineEnabled!: boolean | null;
  @ApiProperty() timeElapsed!: number;
  @ApiProperty({ nullable: true, type: 'string' }) startedTime!: string | null;
  @ApiProperty({ nullable: true, type: 'string' }) endTime!: string | null;
}

export function toPositionV1(view: PositionView, context: ViewContext): LegacyPositionV1 {
  const { readings, motion } = view;
  const zone = context.timeZone;
  const z = (instant: Date | null) => (instant ? utcWithZ(instant) : null);
  const user = (instant: Date | null) => (instant ? userTimeWithOffset(instant, zone) : null);
  return {
    Id: Math.floor(view.fixTime.getTime() / 1000),
    UtcTime: utcWithZ(view.fixTime),
    UserTime: userTimeWithOffset(view.fixTime, zone),
    UserTimeFormated: formatDotNet(view.fixTime, zone, context.dateFormat),
    Lat: view.lat,
    Lng: view.lng,
    Speed: roundOrNull(view.speedKmh ?? 0, 1)!,
    Course: view.course ?? 0,
    Ignition: view.ignition,
    Odometer: roundOrNull(readings.odometerM !== undefined ? readings.odometerM / 1000 : null, 3),
    Voltage: roundOrNull(readings.powerV, 2),
    Fatigue: isoDuration(Math.round(motion.fatigueS)),
    EngineHours: roundOrNull(readings.engineHours, 2),
    SatSignal: satelliteCoverage(readings.satellites),
    Satellites: readings.satellites ?? null,
    ConnectionStrengh: networkCoverage(readings.signal),
    DeviceId: view.vehicle.id,
    IgnitionTime: motion.ignitionTimeS,
    DeviceName: view.vehicle.name,
    IMEI: view.vehicle.imei,
    Vin: view.vehicle.vin,
    StartMovingTime: z(motion.startMovingTime),
    StartMovingTimeUser: user(motion.startMovingTime),
    LastMovementTime: z(motion.lastMovementTime),
    LastMovementTimeUser: user(motion.lastMovementTime),
    LastMovementTimeUserFormated: motion.lastMovementTime
      ? formatDotNet(motion.lastMovementTime, zone, context.dateFormat)
      : null,
    DrivingTime: Math.round(motion.drivingTimeS),
    Driver: readings.driver ?? null,
    FuelLevel: roundOrNull(readings.fuelLevel, 1),
    DTC: readings.dtcCodes?.length ? readings.dtcCodes.join(',') : null,
    IsDoorLocked: readings.doorLocked ?? null,
    Address: view.address,
    EngineEnabled: readings.engineEnabled ?? null,
    timeElapsed: Math.round(motion.timeElapsedS),
    startedTime: z(motion.tripStartedTime),
    endTime: z(motion.tripEndTime),
  };
}
