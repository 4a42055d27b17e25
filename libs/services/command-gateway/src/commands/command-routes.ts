import { Actions } from '@fleet/contracts';
import {
  ApiAuthenticated,
  ApiErrors,
  ApiInterfaceExtension,
  ApiLegacyErrors,
  Principal,
  RequiresAction,
} from '@fleet/platform';
import { applyDecorators, Controller } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { CommandParameters } from './command-view';
import { CommandsService, IDEMPOTENCY_WINDOW_HOURS } from './commands.service';
import { idempotencyKeyOf, MAX_IDEMPOTENCY_KEY_LENGTH } from './command-requests';

/**
 * The groups of command-gateway's routes (docs/commands.md, Routes). Every one takes `commands:send`,
 * reading a command's status too: whoever may send commands follows what became of them, and a
 * command's parameters (a lock, an immobilised engine) are nothing a read-only key needs.
 */

/** V2 `/v2/api/vehicles/{id}/...` command routes of the spec, and the vehicle's command list. */
export const VehicleCommandRoutes = () =>
  applyDecorators(
    Controller('v2/api/vehicles/:id'),
    ApiTags('Commands'),
    ApiAuthenticated(),
    ApiErrors(404, 422),
    RequiresAction(Actions.sendCommands),
  );

/** The extension `GET /v2/api/commands/{commandId}`. */
export const CommandStatusRoutes = () =>
  applyDecorators(
    Controller('v2/api/commands'),
    ApiTags('Commands'),
    ApiInterfaceExtension(),
    ApiAuthenticated(),
    ApiErrors(404, 422),
    RequiresAction(Actions.sendCommands),
  );

/** V1 `/api/...` command routes: the V1 error body. */
export const LegacyCommandRoutes = () =>
  applyDecorators(
    Controller('api'),
    ApiTags('V1 commands'),
    ApiAuthenticated({ legacy: true }),
    ApiLegacyErrors(404, 422),
    RequiresAction(Actions.sendCommands),
  );

/** The `Idempotency-Key` header of every sending route (an extension). */
export const ApiIdempotencyKey = () =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      `Extension. Any printable ASCII text up to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters. Sending again with a ` +
      `key the company used within ${IDEMPOTENCY_WINDOW_HOURS} hours answers the command that request made ` +
      '(as it is now, with `Idempotent-Replayed: true`) instead of making a second one; 422 when the key ' +
      'was used for a different request.',
  });

export const BODY_TYPES = [
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
] as const;

export const INPUTS_NOTE =
  'Inputs may be query parameters (the spec’s convention) or fields of a JSON, form or multipart body; ' +
  'when both give one, the query parameter wins. The answer is the command as accepted; it is carried ' +
  'out later (docs/commands.md).';

/** Sends a command and marks a replayed answer. */
export async function sendCommand(
  commands: CommandsService,
  reply: FastifyReply,
  principal: Principal,
  vehicleId: number,
  parameters: CommandParameters,
  idempotencyKey: string | string[] | undefined,
) {
  const key = idempotencyKeyOf(idempotencyKey);
  const { command, replayed } = await commands.send(principal, vehicleId, parameters, key);
  if (replayed) void reply.header('Idempotent-Replayed', 'true');
  return command;
}
