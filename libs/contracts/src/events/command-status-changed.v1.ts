import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUUID, Length, Min } from 'class-validator';
import { IsInstantText } from '../instant';
import { IsStorableText } from '../text';
import { commandTypes, CommandType } from './command-requested.v1';

/** Where a command is in its life (docs/commands.md, Lifecycle). */
export const commandStatuses = ['queued', 'sent', 'acknowledged', 'failed', 'expired', 'superseded'] as const;
export type CommandStatus = (typeof commandStatuses)[number];

/**
 * A command entered a status: published by command-gateway (outbox, in the transaction that changed
 * it) at every change, keyed by vehicle id, for the live stream. The fields after `companyId` are the
 * V2 command record exactly as `GET /v2/api/commands/{commandId}` answers it (docs/commands.md).
 */
export class CommandStatusChangedV1 {
  /** The company that sent the command. */
  @IsInt()
  @Min(1)
  companyId!: number;

  @IsUUID()
  id!: string;

  @IsInt()
  @Min(1)
  vehicleId!: number;

  @IsIn(commandTypes)
  type!: CommandType;

  @IsIn(commandStatuses)
  status!: CommandStatus;

  @IsInstantText()
  createdAt!: string;

  @IsInstantText()
  expiresAt!: string;

  @IsOptional()
  @IsInstantText()
  sentAt!: string | null;

  @IsOptional()
  @IsInstantText()
  finishedAt!: string | null;

  @IsOptional()
  @IsString()
  @IsStorableText()
  @Length(0, 1000)
  reason!: string | null;

  @IsOptional()
  @IsString()
  @IsStorableText()
  @Length(0, 1000)
  deviceAnswer!: string | null;

  @IsOptional()
  @IsBoolean()
  isLock?: boolean;

  @IsOptional()
  @IsBoolean()
  isOn?: boolean;

  @IsOptional()
  @IsNumber()
  odometer?: number;

  @IsOptional()
  @IsString()
  @IsStorableText()
  name?: string;
}
