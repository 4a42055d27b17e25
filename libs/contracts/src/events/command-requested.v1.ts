import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsString,
  IsUUID,
  Length,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { IsInstantText } from '../instant';
import { IsStorableText } from '../text';

/**
 * What a vehicle command asks for (issue 19). `doorLock`, `ignition` and `locate` go to the device
 * through the tracker port (telemetry-ingest); `odometer` and `name` change the registry (query-api).
 */
export const commandTypes = ['doorLock', 'ignition', 'locate', 'odometer', 'name'] as const;
export type CommandType = (typeof commandTypes)[number];

/** The command types a device carries out (handed out on the tracker port). */
export const deviceCommandTypes: readonly CommandType[] = ['doorLock', 'ignition', 'locate'];

/** Longest vehicle name a `name` command sets (trimmed, 1 to 100 characters). */
export const MAX_VEHICLE_NAME_LENGTH = 100;

/**
 * A command accepted by command-gateway, published through its outbox with the stored command and
 * keyed by vehicle id, so that one vehicle's commands are seen in the order they were accepted. A
 * newer command of the same type for the same vehicle replaces an older one still waiting
 * (supersession); a command not carried out by `expiresAt` is no longer handed out.
 */
export class CommandRequestedV1 {
  /** The command's id: what the device echoes as `cmdid`, and what results name. */
  @IsUUID()
  commandId!: string;

  @IsInt()
  @Min(1)
  vehicleId!: number;

  /** The company whose token sent it. */
  @IsInt()
  @Min(1)
  companyId!: number;

  @IsIn(commandTypes)
  type!: CommandType;

  /** `doorLock`: true locks, false unlocks. */
  @ValidateIf((command: CommandRequestedV1) => command.type === 'doorLock')
  @IsBoolean()
  lock?: boolean;

  /** `ignition`: false immobilises the engine, true releases it. */
  @ValidateIf((command: CommandRequestedV1) => command.type === 'ignition')
  @IsBoolean()
  on?: boolean;

  /** `odometer`: the reading the vehicle's odometer shows from now on, in kilometres. */
  @ValidateIf((command: CommandRequestedV1) => command.type === 'odometer')
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(10_000_000)
  odometerKm?: number;

  /** `name`: the vehicle's new name, trimmed. */
  @ValidateIf((command: CommandRequestedV1) => command.type === 'name')
  @IsString()
  @IsStorableText()
  @Length(1, MAX_VEHICLE_NAME_LENGTH)
  name?: string;

  @IsInstantText()
  requestedAt!: string;

  /** After this instant the command is expired: not handed out, its result ignored. */
  @IsInstantText()
  expiresAt!: string;
}
