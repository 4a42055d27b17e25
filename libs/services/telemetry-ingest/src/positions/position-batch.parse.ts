import {
  checkReadings,
  isLatitudeValue,
  isLongitudeValue,
  isStrictInstant,
  PositionReadingsV1,
} from '@fleet/contracts';
import { isNumber } from 'class-validator';
import { NormalizedReport } from './normalized-report';
import { MAX_POSITIONS_PER_BATCH } from './position-batch.dto';
import { TelemetryIngestException, TelemetryIngestExceptionCode } from '../telemetry-ingest.exception';

const malformed = (description: string) =>
  new TelemetryIngestException(TelemetryIngestExceptionCode.MalformedBatch, description);

/**
 * Reads a batch request body with the rules PositionBatchDto declares (which documents them in the
 * OpenAPI document), as plain predicates: class-validator's nested validation cost a large share of
 * a core at the batch endpoint's rates (docs/performance.md). Any problem is a 422 naming each bad field, and
 * nothing of the batch is accepted. position-batch.parse.spec.ts holds it to the DTO's rules.
 */
export function parseBatch(body: unknown): NormalizedReport[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw malformed('body: must be a JSON object with a "positions" array');
  }
  const positions = (body as { positions?: unknown }).positions;
  if (!Array.isArray(positions)) throw malformed('positions: must be an array');
  if (positions.length < 1 || positions.length > MAX_POSITIONS_PER_BATCH) {
    throw malformed(`positions: must hold 1 to ${MAX_POSITIONS_PER_BATCH} positions`);
  }
  const problems: string[] = [];
  const reports = positions.map((item: unknown, index): NormalizedReport => {
    const path = `positions[${index}].`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push(`positions[${index}]: must be an object`);
      return undefined as never;
    }
    const plain = item as Record<string, unknown>;
    const { deviceId, timestamp, lat, lon } = plain;
    if (typeof deviceId !== 'string' || deviceId.length < 1 || deviceId.length > 64) {
      problems.push(`${path}deviceId: must be a string of 1 to 64 characters`);
    }
    // The event check's predicates: the same answers as isISO8601 (strict), isLatitude and isLongitude,
    // with fast paths for canonical instants and numbers in range.
    if (!isStrictInstant(timestamp)) problems.push(`${path}timestamp: must be an ISO 8601 date-time`);
    if (!isNumber(lat) || !isLatitudeValue(lat)) problems.push(`${path}lat: must be a number from -90 to 90`);
    if (!isNumber(lon) || !isLongitudeValue(lon))
      problems.push(`${path}lon: must be a number from -180 to 180`);
    const readings: Record<string, unknown> = {};
    // `protocol` is the intake's to set (`batch`), not a reading a sender gives: ignored like any
    // unknown field, as before the field existed (copied only in the rare request that has it).
    checkReadings('protocol' in plain ? { ...plain, protocol: undefined } : plain, problems, readings, path);
    return {
      deviceId: deviceId as string,
      fixTime: new Date(timestamp as string),
      lat: lat as number,
      lng: lon as number,
      readings: readings as PositionReadingsV1,
    };
  });
  if (problems.length > 0) {
    const shown = problems.slice(0, 10).join('; ');
    throw new TelemetryIngestException(
      TelemetryIngestExceptionCode.InvalidPosition,
      problems.length > 10 ? `${shown}; and ${problems.length - 10} more` : shown,
    );
  }
  return reports;
}
