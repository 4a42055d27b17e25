import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiErrorBody, ErrorCode, ErrorType } from './api-error';
import { CompanySuspendedException } from './company-suspended.exception';
import { toHttpError } from './to-api-error';
import { isLegacyRoute, toLegacyErrorBody } from './legacy-error';

/**
 * The one place HTTP errors are shaped and logged. Registered globally by the platform bootstrap,
 * so a new controller gets it without doing anything. Nest also routes Fastify's own errors
 * (unparsable body, unsupported media type) here.
 */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') {
      // Event handlers have their own failure path (retries, then the dead-letter topic).
      throw exception;
    }
    const http = host.switchToHttp();
    sendHttpError(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }
}

const logger = new Logger('HttpError');

/**
 * Answers `request` with the public error of `exception`: the ApiError body, or the V1 error body on
 * V1 routes; an unexpected error is logged and shows nothing. The global filter uses it, and so do
 * the errors Fastify raises before any route or filter runs (a malformed percent-encoding, a path
 * value over the router's limit), so every answer of the API port has one of the two shapes.
 */
export function sendHttpError(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
  if (exception instanceof CompanySuspendedException) {
    void reply.status(exception.status).send(exception.body());
    return;
  }
  const error = toHttpError(exception, String(request.id));
  if (error.unexpected) {
    logger.error({
      msg: 'unhandled error',
      err: exception,
      requestId: String(request.id),
      method: request.method,
      url: request.url,
    });
  }
  const body = isLegacyRoute(request.url) ? toLegacyErrorBody(error.body) : error.body;
  void reply.status(error.status).headers(error.headers).send(body);
}

/**
 * The raw HTTP response to a request Node's parser refused before Fastify saw it (request line or
 * headers over the size limit, a malformed request, a timeout), in the same shapes: the parser gives
 * no request id and no route, so the route family is read from the first bytes of the request.
 */
export function clientErrorResponse(error: { code?: string; rawPacket?: Buffer }): string {
  const [status, reason, description] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request line or its headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request was not received in time.']
        : [400, 'Bad Request', 'The request is not valid HTTP.'];
  // The request line's target: `GET /api/... HTTP/1.1`.
  const target = error.rawPacket?.subarray(0, 64).toString('latin1').split(' ')[1] ?? '';
  const body: ApiErrorBody = { type: ErrorType.ValidationError, code: ErrorCode.InvalidInput, description };
  const text = JSON.stringify(isLegacyRoute(target) ? toLegacyErrorBody(body) : body);
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`
  );
}
