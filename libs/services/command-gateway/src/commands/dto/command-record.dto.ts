import { commandTypes, CommandType } from '@fleet/contracts';
import { utcWithZ } from '@fleet/formats';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { commandStatuses, CommandStatus } from '../command.entity';
import { CommandView } from '../command-view';

const UTC = { format: 'date-time', description: 'UTC', example: '2026-04-28T10:00:00Z' } as const;

/** A command as the V2 routes answer it (docs/commands.md). */
@ApiSchema({ name: 'CommandRecord' })
export class CommandRecord {
  @ApiProperty({
    format: 'uuid',
    description: 'The command’s id: `GET /v2/api/commands/{commandId}` reads it',
  })
  id!: string;

  @ApiProperty({ type: 'integer' })
  vehicleId!: number;

  @ApiProperty({ enum: commandTypes })
  type!: CommandType;

  @ApiProperty({
    enum: commandStatuses,
    description:
      '`queued` (accepted), `sent` (handed to the device), `acknowledged` or `failed` (the device, or for ' +
      '`odometer` and `name` the registry, said so), `expired` (no answer in time), `superseded` (a newer ' +
      'command of the same type came while this one was queued)',
  })
  status!: CommandStatus;

  @ApiProperty(UTC)
  createdAt!: string;

  @ApiProperty({ ...UTC, description: 'UTC: still waiting at this time, the command expires' })
  expiresAt!: string;

  @ApiProperty({ ...UTC, nullable: true, type: 'string', description: 'UTC: first handed to the device' })
  sentAt!: string | null;

  @ApiProperty({
    ...UTC,
    nullable: true,
    type: 'string',
    description: 'UTC: when it was acknowledged, failed, expired or superseded',
  })
  finishedAt!: string | null;

  @ApiProperty({
    nullable: true,
    type: 'string',
    description:
      'Why it failed, expired or was superseded; while `queued`, why it is held back (`waiting for an ' +
      'authenticated device`: no report or session of the vehicle proved it comes from its device)',
  })
  reason!: string | null;

  @ApiProperty({
    nullable: true,
    type: 'string',
    description:
      "The device's own answer, from trackers whose protocol carries one (Teltonika Codec 12, GT06): e.g. " +
      '`DOUT1:IGNORED DOUT2:1` (docs/trackers.md)',
  })
  deviceAnswer!: string | null;

  @ApiPropertyOptional({ type: 'boolean', description: '`doorLock` only: true locks' })
  isLock?: boolean;

  @ApiPropertyOptional({ type: 'boolean', description: '`ignition` only: false immobilises the engine' })
  isOn?: boolean;

  @ApiPropertyOptional({ type: 'number', description: '`odometer` only: the reading set, in km' })
  odometer?: number;

  @ApiPropertyOptional({ type: 'string', description: '`name` only: the new vehicle name' })
  name?: string;
}

/** The V1 answer of the sending routes: PascalCase, `Status` as V1 answers say it (docs/commands.md). */
@ApiSchema({ name: 'LegacyCommandRecord' })
export class LegacyCommandRecord {
  @ApiProperty({
    example: 'OK',
    description: '`OK`: the command was accepted (errors use the V1 error body)',
  })
  Status!: 'OK';

  @ApiProperty({ format: 'uuid' })
  CommandId!: string;

  @ApiProperty({ type: 'integer' })
  VehicleId!: number;

  @ApiProperty({ enum: commandTypes })
  CommandType!: CommandType;

  @ApiProperty({ enum: commandStatuses, description: 'As the V2 record’s `status`' })
  CommandStatus!: CommandStatus;

  @ApiProperty(UTC)
  CreatedAt!: string;

  @ApiProperty(UTC)
  ExpiresAt!: string;

  @ApiPropertyOptional({ type: 'boolean' })
  IsLock?: boolean;

  @ApiPropertyOptional({ type: 'boolean' })
  IsOn?: boolean;

  @ApiPropertyOptional({ type: 'number' })
  Odometer?: number;

  @ApiPropertyOptional({ type: 'string' })
  Name?: string;
}

const optionalDate = (date: Date | null) => (date ? utcWithZ(date) : null);

export function toCommandRecord(view: CommandView): CommandRecord {
  const { parameters } = view;
  return {
    id: view.id,
    vehicleId: view.vehicleId,
    type: parameters.type,
    status: view.status,
    createdAt: utcWithZ(view.createdAt),
    expiresAt: utcWithZ(view.expiresAt),
    sentAt: optionalDate(view.sentAt),
    finishedAt: optionalDate(view.finishedAt),
    reason: view.reason,
    deviceAnswer: view.deviceAnswer,
    ...(parameters.type === 'doorLock' ? { isLock: parameters.lock } : {}),
    ...(parameters.type === 'ignition' ? { isOn: parameters.on } : {}),
    ...(parameters.type === 'odometer' ? { odometer: parameters.odometerKm } : {}),
    ...(parameters.type === 'name' ? { name: parameters.name } : {}),
  };
}

export function toLegacyCommandRecord(view: CommandView): LegacyCommandRecord {
  const { parameters } = view;
  return {
    Status: 'OK',
    CommandId: view.id,
    VehicleId: view.vehicleId,
    CommandType: parameters.type,
    CommandStatus: view.status,
    CreatedAt: utcWithZ(view.createdAt),
    ExpiresAt: utcWithZ(view.expiresAt),
    ...(parameters.type === 'doorLock' ? { IsLock: parameters.lock } : {}),
    ...(parameters.type === 'ignition' ? { IsOn: parameters.on } : {}),
    ...(parameters.type === 'odometer' ? { Odometer: parameters.odometerKm } : {}),
    ...(parameters.type === 'name' ? { Name: parameters.name } : {}),
  };
}
