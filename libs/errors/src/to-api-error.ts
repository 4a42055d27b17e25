import { HttpException } from '@nestjs/common';
import { ApiErrorBody, ErrorCode, ErrorType } from './api-error';
import { ApiException } from './api-exception';

export interface HttpErrorResponse {
  status: number;
  body: ApiErrorBody;
  headers: Readonly<Record<string, string>>;
  /** True when the cause is ours, not the client's: it is logged with its stack and never shown. */
  unexpected: boolean;
}

const UNEXPECTED_DESCRIPTION = 'An unexpected error occurred. Quote the requestId when contacting support.';

/** Errors raised by Fastify itself (body parsing, limits) carry a numeric statusCode and an FST_ code. */
function frameworkStatus(exception: unknown): number | undefined {
  if (exception instanceof HttpException) return exception.getStatus();
  if (typeof exception === 'object' && exception !== null && 'statusCode' in exception) {
    const status = (exception as { statusCode: unknown }).statusCode;
    return typeof status === 'number' ? status : undefined;
  }
  return undefined;
}

function clientMessage(exception: unknown): string {
  if (exception instanceof HttpException) {
    const response = exception.getResponse();
    if (typeof response === 'string') return response;
    const message = (response as { message?: unknown }).message;
    if (Array.isArray(message)) return message.join('; ');
    if (typeof message === 'string') return message;
  }
  return exception instanceof Error ? exception.message : 'The request could not be processed.';
}

/**
 * Maps anything thrown while serving an HTTP request to the public error table.
 * Client mistakes keep a clear description; everything else becomes a 500 that reveals nothing.
 */
export function toHttpError(exception: unknown, requestId: string): HttpErrorResponse {
  const build = (
    status: number,
    type: ErrorType,
    code: ErrorCode,
    description: string,
    unexpected = false,
  ) => ({
    status,
    body: { type, code, description, requestId },
    headers: {},
    unexpected,
  });

  if (exception instanceof ApiException) {
    return {
      ...build(exception.status, exception.type, exception.code, exception.description),
      headers: exception.headers,
    };
  }

  const status = frameworkStatus(exception);
  if (status === undefined || status >= 500) {
    return build(500, ErrorType.Server, ErrorCode.InternalError, UNEXPECTED_DESCRIPTION, true);
  }
  switch (status) {
    case 401:
      return build(401, ErrorType.Authentication, ErrorCode.InvalidCredentials, clientMessage(exception));
    case 403:
      return build(403, ErrorType.Authorization, ErrorCode.InvalidScope, clientMessage(exception));
    case 404:
      return build(404, ErrorType.Resource, ErrorCode.NotFound, clientMessage(exception));
    case 413:
      return build(413, ErrorType.ValidationError, ErrorCode.PayloadTooLarge, clientMessage(exception));
    default:
      // 400, 415 and the rest of 4xx: the request could not be parsed or is missing values.
      return build(422, ErrorType.ValidationError, ErrorCode.InvalidInput, clientMessage(exception));
  }
}
