import { ApiErrorRow, DomainException } from '@fleet/errors';

/** What can go wrong in command-gateway that a client is told about. */
export enum CommandGatewayExceptionCode {
  VehicleNotFound = 'VEHICLE_NOT_FOUND',
  CommandNotFound = 'COMMAND_NOT_FOUND',
  /** A command input that is missing or breaks a rule; names the field. */
  InvalidCommand = 'INVALID_COMMAND',
  /** An `Idempotency-Key` already used within 24 hours for a different request. */
  IdempotencyKeyReused = 'IDEMPOTENCY_KEY_REUSED',
}

const rows: Record<CommandGatewayExceptionCode, ApiErrorRow> = {
  [CommandGatewayExceptionCode.VehicleNotFound]: ApiErrorRow.NotFound,
  [CommandGatewayExceptionCode.CommandNotFound]: ApiErrorRow.NotFound,
  [CommandGatewayExceptionCode.InvalidCommand]: ApiErrorRow.InvalidInput,
  [CommandGatewayExceptionCode.IdempotencyKeyReused]: ApiErrorRow.InvalidInput,
};

export class CommandGatewayException extends DomainException<CommandGatewayExceptionCode> {
  constructor(code: CommandGatewayExceptionCode, description: string) {
    super(code, rows, description);
  }
}
