import { MAX_VEHICLE_NAME_LENGTH } from '@fleet/contracts';
import { CommandGatewayException, CommandGatewayExceptionCode } from '../command-gateway.exception';
import { CommandParameters } from './command-view';
import { MAX_ODOMETER_KM } from './dto/command-inputs';

/**
 * The rules of the command routes' inputs, once their types are checked: which are required, the
 * ranges, the trimming of names and the form of an `Idempotency-Key`. Each failure is a 422 naming its
 * field (docs/commands.md, Routes).
 */

const invalid = (description: string) =>
  new CommandGatewayException(CommandGatewayExceptionCode.InvalidCommand, description);

/** A field's value from the query or the body (InputsFromQueryOrBody); a 422 when neither gave one. */
export function required<T>(field: string, value: T | undefined): T {
  if (value === undefined) throw invalid(`${field}: is required, as a query parameter or in the body`);
  return value;
}

export const doorLock = (lock: boolean): CommandParameters => ({ type: 'doorLock', lock });

export const ignition = (on: boolean): CommandParameters => ({ type: 'ignition', on });

export const locate = (): CommandParameters => ({ type: 'locate' });

export function odometer(km: number): CommandParameters {
  if (!(km >= 0 && km <= MAX_ODOMETER_KM)) {
    throw invalid(`odometer: must be between 0 and ${MAX_ODOMETER_KM} km, not ${km}`);
  }
  return { type: 'odometer', odometerKm: km };
}

export function rename(name: string): CommandParameters {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw invalid('name: must not be empty or only spaces');
  if (trimmed.length > MAX_VEHICLE_NAME_LENGTH) {
    throw invalid(
      `name: must be at most ${MAX_VEHICLE_NAME_LENGTH} characters once trimmed, not ${trimmed.length}`,
    );
  }
  return { type: 'name', name: trimmed };
}

/** The longest `Idempotency-Key` taken (the IETF draft sets none; Stripe's limit is 255). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** The `Idempotency-Key` header: absent, or 1 to 255 printable ASCII characters. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) throw invalid('Idempotency-Key: give the header once');
  if (!/^[\x20-\x7e]+$/.test(header) || header.trim().length === 0) {
    throw invalid('Idempotency-Key: must be printable ASCII text, not empty');
  }
  if (header.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw invalid(`Idempotency-Key: must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
  return header;
}
