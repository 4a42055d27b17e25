import { ApiErrorRow, API_ERROR_TABLE } from './api-error-table';
import { ErrorCode, ErrorType } from './api-error';

/**
 * An expected failure, carrying everything the transport needs (status, category, code, a
 * description safe to show a client) and nothing else. Domain code throws its own subclass of
 * {@link DomainException}; the factories here are the request pipeline's own failures, shared by
 * every service (credentials, scope, rate limit, input validation, sunset, body size).
 */
export class ApiException extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: ErrorCode,
    readonly description: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(description);
    this.name = 'ApiException';
  }

  static of(row: ApiErrorRow, description: string, headers?: Record<string, string>): ApiException {
    const { status, type, code } = API_ERROR_TABLE[row];
    return new ApiException(status, type, code, description, headers);
  }

  static invalidInput(description: string): ApiException {
    return ApiException.of(ApiErrorRow.InvalidInput, description);
  }

  static invalidCredentials(description = 'The credentials are missing, invalid or expired.'): ApiException {
    return ApiException.of(ApiErrorRow.InvalidCredentials, description);
  }

  static invalidScope(description: string): ApiException {
    return ApiException.of(ApiErrorRow.InvalidScope, description);
  }

  static rateLimited(description: string, headers: Record<string, string>): ApiException {
    return ApiException.of(ApiErrorRow.RateLimited, description, headers);
  }

  static gone(description: string): ApiException {
    return ApiException.of(ApiErrorRow.Gone, description);
  }

  static payloadTooLarge(description: string): ApiException {
    return ApiException.of(ApiErrorRow.PayloadTooLarge, description);
  }

  /** 503: nothing was taken; Retry-After says when to try again. */
  static unavailable(description: string, retryAfterSeconds = 1): ApiException {
    return ApiException.of(ApiErrorRow.Unavailable, description, {
      'Retry-After': String(retryAfterSeconds),
    });
  }

  static headersTooLarge(description = 'The request line or its headers are too large.'): ApiException {
    return ApiException.of(ApiErrorRow.HeadersTooLarge, description);
  }
}

/**
 * The base of each service's own exception (`AuthException`, `QueryApiException`, ...): a code enum
 * of the domain, each code assigned to a row of the error table by the service, so a new failure of
 * one domain never adds a factory here. The domain code is for logs and tests; the client sees the
 * row's public code.
 */
export abstract class DomainException<Code extends string> extends ApiException {
  protected constructor(
    readonly domainCode: Code,
    rows: Readonly<Record<Code, ApiErrorRow>>,
    description: string,
  ) {
    const { status, type, code } = API_ERROR_TABLE[rows[domainCode]];
    super(status, type, code, description);
    this.name = new.target.name;
  }
}
