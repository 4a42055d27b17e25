import { utcWithZ } from '@fleet/formats';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { DeviceSettingsView } from '../device-settings.model';

/** A tracker's settings as the routes answer them; never the secret (nor its hash). */
@ApiSchema({ name: 'DeviceSettingsRecord' })
export class DeviceSettingsRecord {
  @ApiProperty({ type: 'integer', example: 12 }) vehicleId!: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The command profile chosen; null: the default profile of the protocol the device speaks',
    example: 'teltonika-fmb-can',
  })
  commandProfile!: string | null;

  @ApiProperty({
    type: 'string',
    isArray: true,
    nullable: true,
    description: 'The networks the tracker must report and log in from; null: any network the port admits',
    example: ['10.64.0.0/16'],
  })
  allowedNetworks!: string[] | null;

  @ApiProperty({ type: 'integer', description: 'Seconds added to the device’s fix times', example: 0 })
  clockOffsetSeconds!: number;

  @ApiProperty({ description: 'Whether every OsmAnd report of the vehicle must carry its secret' })
  secretRequired!: boolean;

  @ApiProperty({
    description:
      'Whether an operator opted the device out of authenticated commands (a warning: anyone who knows ' +
      'its identifier can take and settle its commands)',
  })
  insecureCommands!: boolean;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'UTC: when the settings last changed; null when they never were set',
    example: '2026-04-28T10:00:00Z',
  })
  updatedAt!: string | null;
}

/** The answer of a change: the only one that can carry a new secret. */
@ApiSchema({ name: 'ChangedDeviceSettingsRecord' })
export class ChangedDeviceSettingsRecord extends DeviceSettingsRecord {
  @ApiPropertyOptional({
    description:
      'Only when `newSecret=true`: the OsmAnd device secret, shown in this answer only (store it in the ' +
      'tracker now). The device sends it as the `secret` parameter of every report.',
    example: 'q8ZP0yq3r2m1h5W3vUx9aTnK7cB4dE6f',
  })
  secret?: string;
}

export const toDeviceSettingsRecord = (view: DeviceSettingsView): DeviceSettingsRecord => ({
  vehicleId: view.vehicleId,
  commandProfile: view.commandProfile,
  allowedNetworks: view.allowedNetworks,
  clockOffsetSeconds: view.clockOffsetSeconds,
  secretRequired: view.secretRequired,
  insecureCommands: view.insecureCommands,
  updatedAt: view.updatedAt === null ? null : utcWithZ(view.updatedAt),
});

export const toChangedDeviceSettingsRecord = (
  view: DeviceSettingsView,
  secret: string | undefined,
): ChangedDeviceSettingsRecord =>
  secret === undefined ? toDeviceSettingsRecord(view) : { ...toDeviceSettingsRecord(view), secret };
