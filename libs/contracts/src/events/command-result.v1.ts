import { IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Min } from 'class-validator';
import { IsInstantText } from '../instant';
import { IsStorableText } from '../text';

/**
 * What became of a command, as the service that carries it out reports it, keyed by vehicle id:
 * `sent` when telemetry-ingest hands it to the device (again on every re-send), `acknowledged` or
 * `failed` when the device reports `cmdstatus`, or when query-api has applied (or refused) an
 * `odometer` or `name` command; `held` (with a `reason`) when telemetry-ingest keeps a queued command
 * back because no report or session of the vehicle proved it comes from the vehicle's device (it stays
 * queued, and its record's reason says why). command-gateway moves the command's status on from these; a result
 * for a command that is already finished (expired, superseded) changes nothing.
 */
export class CommandResultV1 {
  @IsUUID()
  commandId!: string;

  @IsInt()
  @Min(1)
  vehicleId!: number;

  @IsIn(['sent', 'acknowledged', 'failed', 'held'])
  status!: 'sent' | 'acknowledged' | 'failed' | 'held';

  /** When it happened (the report's arrival for device results). */
  @IsInstantText()
  at!: string;

  /** The device's own answer, when its protocol carries one (Teltonika Codec 12, GT06 0x15). */
  @IsOptional()
  @IsString()
  @IsStorableText()
  @Length(1, 500)
  answer?: string;

  /** Why it failed, in words, when known. */
  @IsOptional()
  @IsString()
  @IsStorableText()
  @Length(1, 500)
  reason?: string;
}
