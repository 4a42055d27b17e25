/** Error categories of the public interface (spec, section Errors). */
export enum ErrorType {
  Authentication = 'AUTHENTICATION',
  Authorization = 'AUTHORIZATION',
  Resource = 'RESOURCE',
  ResourceConflict = 'RESOURCE_CONFLICT',
  ValidationError = 'VALIDATION_ERROR',
  RateLimit = 'RATE_LIMIT',
  ServerError = 'SERVER_ERROR',
  Server = 'SERVER',
}

/** Machine codes within the categories. */
export enum ErrorCode {
  InvalidCredentials = 'INVALID_CREDENTIALS',
  InvalidScope = 'INVALID_SCOPE',
  CompanySuspended = 'COMPANY_SUSPENDED',
  NotFound = 'NOT_FOUND',
  /** RESOURCE_CONFLICT: the resource is still used by another (a geofence named by a configuration). */
  ResourceInUse = 'RESOURCE_IN_USE',
  InvalidInput = 'INVALID_INPUT',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  RateLimitExceeded = 'RATE_LIMIT_EXCEEDED',
  InternalServerError = 'INTERNAL_SERVER_ERROR',
  /** SERVER_ERROR: a dependency (the broker, the database) cannot take the request now; retry. */
  ServiceUnavailable = 'SERVICE_UNAVAILABLE',
  InternalError = 'INTERNAL_ERROR',
}

/** The body of every V2 error response (except the company-suspended one of authenticated routes). */
export interface ApiErrorBody {
  type: ErrorType;
  code: ErrorCode;
  description: string;
  requestId?: string;
  docUrl?: string;
}
