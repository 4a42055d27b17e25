import { ErrorCode, ErrorType } from './api-error';

/**
 * The one exception type domain code throws for an expected failure. It carries everything the
 * transport needs (status, category, code, a description safe to show a client) and nothing else.
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

  static invalidInput(description: string): ApiException {
    return new ApiException(422, ErrorType.ValidationError, ErrorCode.InvalidInput, description);
  }

  static notFound(description: string): ApiException {
    return new ApiException(404, ErrorType.Resource, ErrorCode.NotFound, description);
  }

  static invalidCredentials(description = 'The credentials are missing, invalid or expired.'): ApiException {
    return new ApiException(401, ErrorType.Authentication, ErrorCode.InvalidCredentials, description);
  }

  static invalidScope(description: string): ApiException {
    return new ApiException(403, ErrorType.Authorization, ErrorCode.InvalidScope, description);
  }

  static companySuspendedAtTokenRoute(): ApiException {
    return new ApiException(
      403,
      ErrorType.Authorization,
      ErrorCode.CompanySuspended,
      'The company of this key, or a company above it, is suspended or not active.',
    );
  }

  static tokenNotIssued(): ApiException {
    return new ApiException(
      500,
      ErrorType.ServerError,
      ErrorCode.InternalServerError,
      'The token could not be issued.',
    );
  }

  static rateLimited(description: string, headers: Record<string, string>): ApiException {
    return new ApiException(429, ErrorType.RateLimit, ErrorCode.RateLimitExceeded, description, headers);
  }

  static gone(description: string): ApiException {
    return new ApiException(410, ErrorType.Resource, ErrorCode.NotFound, description);
  }

  static payloadTooLarge(description: string): ApiException {
    return new ApiException(413, ErrorType.ValidationError, ErrorCode.PayloadTooLarge, description);
  }
}
