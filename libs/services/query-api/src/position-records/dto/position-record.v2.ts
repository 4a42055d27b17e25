import { ApiProperty } from '@nestjs/swagger';
import { ReportProtocol, reportProtocols } from '@fleet/contracts';
import {
  dotNetTimeSpan,
  formatDotNet,
  networkCoverage,
  roundOrNull,
  satelliteCoverage,
  userTimeWithoutOffset,
  utcWithoutOffset,
} from '@fleet/formats';
import { PositionView, ViewContext } from '../position-view';

/** Vehicle position record of the V2 interface (spec, camelCase). Units: docs/telemetry.md. */
export class VehiclePositionV2 {
  @ApiProperty({ description: 'UTC, without offset', example: '2024-03-31T10:00:00' }) utcTime!: string;
  @ApiProperty({ description: "The token's time zone, without offset", example: '2024-03-31T12:00:00' })
  userTime!: string;
  @ApiProperty({ description: "In the token's display pattern", example: '31/03/2024 12:00:00' })
  userTimeFormatted!: string;
  @ApiProperty() lat!: number;
  @ApiProperty() lng!: number;
  @ApiProperty({ description: 'km/h' }) speed!: number;
  @ApiProperty({ type: 'integer', description: 'degrees from north' }) course!: number;
  @ApiProperty({ nullable: true, type: 'boolean' }) ignition!: boolean | null;
  @ApiProperty({ nullable: true, type: 'number', description: 'km' }) odometer!: number | null;
  @ApiProperty({ nullable: true, type: 'number', description: 'volts' }) voltage!: number | null;
  @ApiProperty({ description: 'continuous driving, .NET TimeSpan', example: '01:12:30' }) fatigue!: string;
  @ApiProperty({ nullable: true, type: 'number', description: 'hours' }) engineHours!: number | null;
  @ApiProperty({ nullable: true, type: 'string', enum: ['NoSignal', 'Poor', 'Fair', 'Good', 'Excellent'] })
  satelliteCoverage!: string | null;
  @ApiProperty({ nullable: true, type: 'integer', description: 'satellites in the fix' })
  satelliteCoverageRawValue!: number | null;
  @ApiProperty({ nullable: true, type: 'string', enum: ['NoSignal', 'Poor', 'Fair', 'Good', 'Excellent'] })
  networkCoverage!: string | null;
  @ApiProperty({ nullable: true, type: 'integer', description: 'signal bars 0–5' })
  networkCoverageRawValue!: number | null;
  @ApiProperty({ type: 'integer', description: 'vehicle id' }) deviceId!: number;
  @ApiProperty({ nullable: true, type: 'number', description: 'seconds since ignition on' }) ignitionTime!:
    number | null;
  @ApiProperty() deviceName!: string;
  @ApiProperty() imei!: string;
  @ApiProperty({ nullable: true, type: 'string' }) vin!: string | null;
  @ApiProperty({ nullable: true, type: 'string', description: 'UTC, without offset' }) startMovingTime!:
    string | null;
  @ApiProperty({ nullable: true, type: 'string' }) startMovingTimeUser!: string | null;
  @ApiProperty({ nullable: true, type: 'string' }) lastMovementTime!: string | null;
  @ApiProperty({ nullable: true, type: 'string' }) lastMovementTimeUser!: string | null;
  @ApiProperty({ nullable: true, type: 'string' }) lastMovementTimeUserFormatted!: string | null;
  @ApiProperty({ description: 'seconds driven in the current trip' }) drivingTime!: number;
  @ApiProperty({ nullable: true, type: 'number', description: 'percent' }) fuelLevel!: number | null;
  @ApiProperty({ nullable: true, type: 'number', description: 'litres' }) fuelVolume!: number | null;
  @ApiProperty({ nullable: true, type: 'number', description: 'percent' }) batteryLevel!: number | null;
  @ApiProperty({ nullable: true, type: 'number', description: 'kW' }) chargerPower!: number | null;
  @ApiProperty({ nullable: true, type: 'number', description: 'kWh' }) chargingEnergy!: number | null;
  @ApiProperty({ nullable: true, type: 'number', description: 'km' }) batteryRange!: number | null;
  @ApiProperty({ nullable: true, type: 'boolean' }) isDoorLocked!: boolean | null;
  @ApiProperty({ nullable: true, type: 'string' }) address!: string | null;
  @ApiProperty({ nullable: true, type: 'boolean' }) engineEnabled!: boolean | null;
  @ApiProperty({ description: 'seconds since the current trip started (or the last one ended)' })
  timeElapsed!: number;
  @ApiProperty({ nullable: true, type: 'string', description: 'start of the current or last trip, UTC' })
  startedTime!: string | null;
  @ApiProperty({ nullable: true, type: 'string', description: 'end of the last completed trip, UTC' })
  endTime!: string | null;
  @ApiProperty() isOnline!: boolean;
  @ApiProperty({
    nullable: true,
    type: 'string',
    enum: reportProtocols,
    description:
      'Extension: how the position came in (a tracker protocol, or `batch` for the batch endpoint); null for positions stored before it was recorded',
  })
  protocol!: ReportProtocol | null;
}

const utcOrNull = (instant: Date | null) => (instant ? utcWithoutOffset(instant) : null);

export function toPositionV2(view: PositionView, context: ViewContext): VehiclePositionV2 {
  const { readings, motion } = view;
  const zone = context.timeZone;
  return {
    utcTime: utcWithoutOffset(view.fixTime),
    userTime: userTimeWithoutOffset(view.fixTime, zone),
    userTimeFormatted: formatDotNet(view.fixTime, zone, context.dateFormat),
    lat: view.lat,
    lng: view.lng,
    speed: roundOrNull(view.speedKmh ?? 0, 1)!,
    course: view.course ?? 0,
    ignition: view.ignition,
    odometer: roundOrNull(readings.odometerM !== undefined ? readings.odometerM / 1000 : null, 3),
    voltage: roundOrNull(readings.powerV, 2),
    fatigue: dotNetTimeSpan(Math.round(motion.fatigueS)),
    engineHours: roundOrNull(readings.engineHours, 2),
    satelliteCoverage: satelliteCoverage(readings.satellites),
    satelliteCoverageRawValue: readings.satellites ?? null,
    networkCoverage: networkCoverage(readings.signal),
    networkCoverageRawValue: readings.signal ?? null,
    deviceId: view.vehicle.id,
    ignitionTime: motion.ignitionTimeS,
    deviceName: view.vehicle.name,
    imei: view.vehicle.imei,
    vin: view.vehicle.vin,
    startMovingTime: utcOrNull(motion.startMovingTime),
    startMovingTimeUser: motion.startMovingTime ? userTimeWithoutOffset(motion.startMovingTime, zone) : null,
    lastMovementTime: utcOrNull(motion.lastMovementTime),
    lastMovementTimeUser: motion.lastMovementTime
      ? userTimeWithoutOffset(motion.lastMovementTime, zone)
      : null,
    lastMovementTimeUserFormatted: motion.lastMovementTime
      ? formatDotNet(motion.lastMovementTime, zone, context.dateFormat)
      : null,
    drivingTime: Math.round(motion.drivingTimeS),
    fuelLevel: roundOrNull(readings.fuelLevel, 1),
    fuelVolume: roundOrNull(readings.fuelVolumeL, 1),
    batteryLevel: roundOrNull(readings.batteryLevel, 1),
    chargerPower: roundOrNull(readings.chargerPowerKw, 2),
    chargingEnergy: roundOrNull(readings.chargingEnergyKwh, 2),
    batteryRange: roundOrNull(readings.batteryRangeKm, 1),
    isDoorLocked: readings.doorLocked ?? null,
    address: view.address,
    engineEnabled: readings.engineEnabled ?? null,
    timeElapsed: Math.round(motion.timeElapsedS),
    startedTime: utcOrNull(motion.tripStartedTime),
    endTime: utcOrNull(motion.tripEndTime),
    isOnline: context.now.getTime() - view.lastSeenAt.getTime() <= context.onlineWindowSeconds * 1000,
    protocol: readings.protocol ?? null,
  };
}
