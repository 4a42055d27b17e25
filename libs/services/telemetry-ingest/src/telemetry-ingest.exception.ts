import { ApiErrorRow, DomainException } from '@fleet/errors';

/** What can go wrong in telemetry-ingest's HTTP side that a client is told about. */
export enum TelemetryIngestExceptionCode {
  /** The body is not a batch at all (no object, no `positions` array, too few or too many). */
  MalformedBatch = 'MALFORMED_BATCH',
  /** A position of the batch has a missing or bad field; the description names each one. */
  InvalidPosition = 'INVALID_POSITION',
}

const rows: Record<TelemetryIngestExceptionCode, ApiErrorRow> = {
  [TelemetryIngestExceptionCode.MalformedBatch]: ApiErrorRow.InvalidInput,
  [TelemetryIngestExceptionCode.InvalidPosition]: ApiErrorRow.InvalidInput,
};

export class TelemetryIngestException extends DomainException<TelemetryIngestExceptionCode> {
  constructor(code: TelemetryIngestExceptionCode, description: string) {
    super(code, rows, description);
  }
}
