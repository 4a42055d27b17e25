import { ErrorCode, ErrorType } from './api-error';

/**
 * The rows of the spec's error table that an expected failure can be. Every domain exception names
 * one of these for each of its codes; this table is the one place that turns a row into what the
 * client sees (status, category, code).
 */
export enum ApiErrorRow {
  InvalidInput = 'invalid-input',
  NotFound = 'not-found',
  /** The request is valid but would leave another resource pointing at nothing (docs/alerts.md). */
  InUse = 'in-use',
  InvalidCredentials = 'invalid-credentials',
  InvalidScope = 'invalid-scope',
  CompanySuspendedAtTokenRoute = 'company-suspended-at-token-route',
  RateLimited = 'rate-limited',
  Gone = 'gone',
  PayloadTooLarge = 'payload-too-large',
  HeadersTooLarge = 'headers-too-large',
  InternalServerError = 'internal-server-error',
  /** Overload or a dependency down: nothing was accepted, the client retries (ingest routes). */
  Unavailable = 'unavailable',
}

export interface ApiErrorShape {
  status: number;
  type: ErrorType;
  code: ErrorCode;
}

export const API_ERROR_TABLE: Readonly<Record<ApiErrorRow, ApiErrorShape>> = {
  [ApiErrorRow.InvalidInput]: { status: 422, type: ErrorType.ValidationError, code: ErrorCode.InvalidInput },
  [ApiErrorRow.NotFound]: { status: 404, type: ErrorType.Resource, code: ErrorCode.NotFound },
  // The spec lists the RESOURCE_CONFLICT category and leaves its codes to us ("not shown").
  [ApiErrorRow.InUse]: { status: 409, type: ErrorType.ResourceConflict, code: ErrorCode.ResourceInUse },
  [ApiErrorRow.InvalidCredentials]: {
    status: 401,
    type: ErrorType.Authentication,
    code: ErrorCode.InvalidCredentials,
  },
  [ApiErrorRow.InvalidScope]: { status: 403, type: ErrorType.Authorization, code: ErrorCode.InvalidScope },
  [ApiErrorRow.CompanySuspendedAtTokenRoute]: {
    status: 403,
    type: ErrorType.Authorization,
    code: ErrorCode.CompanySuspended,
  },
  [ApiErrorRow.RateLimited]: { status: 429, type: ErrorType.RateLimit, code: ErrorCode.RateLimitExceeded },
  // The spec's only words on 410: a deprecated route after its sunset date. It has no code of its own.
  [ApiErrorRow.Gone]: { status: 410, type: ErrorType.Resource, code: ErrorCode.NotFound },
  [ApiErrorRow.PayloadTooLarge]: {
    status: 413,
    type: ErrorType.ValidationError,
    code: ErrorCode.PayloadTooLarge,
  },
  // A request line or headers over the limit: the input cannot be read (HTTP's 431 names the reason).
  [ApiErrorRow.HeadersTooLarge]: {
    status: 431,
    type: ErrorType.ValidationError,
    code: ErrorCode.InvalidInput,
  },
  // "A token that could not be issued": the spec's SERVER_ERROR row, apart from unhandled errors.
  [ApiErrorRow.InternalServerError]: {
    status: 500,
    type: ErrorType.ServerError,
    code: ErrorCode.InternalServerError,
  },
  // Not a row of the spec: only our own ingest routes answer it (decision 0005), as HTTP's 503 means.
  [ApiErrorRow.Unavailable]: {
    status: 503,
    type: ErrorType.ServerError,
    code: ErrorCode.ServiceUnavailable,
  },
};
