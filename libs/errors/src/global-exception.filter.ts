import { randomUUID } from 'node:crypto';
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
  // Errors raised before the request pipeline's hooks (Fastify's router) would otherwise lack it.
  void reply.header('x-request-id', String(request.id));
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

/** The request line at the start of a packet: `GET /api/... HTTP/1.1`. */
const REQUEST_LINE = /^[A-Z]+ (\S+)/;

/**
 * The route family of the request Node's parser refused, from the packet it was reading: known only
 * when the packet starts with a request line whose head does not end in it (then that request is the
 * one refused). A long request line split over reads, or a packet that starts with an earlier request
 * of the same connection, leaves it unknown.
 */
function familyOf(packet: Buffer | undefined): 'v1' | 'v2' | undefined {
  const text = packet?.toString('latin1') ?? '';
  const line = REQUEST_LINE.exec(text);
  if (!line || text.includes('\r\n\r\n')) return undefined;
  return isLegacyRoute(line[1]) ? 'v1' : 'v2';
}

/**
 * The raw HTTP response to a request Node's parser refused before Fastify saw it (request line or
 * headers over its limit, a malformed request, a timeout), in the same shapes: the parser gives no
 * request id, so the answer gets a new one (body and X-Request-Id, as every other error has), and no
 * route, so the family is read from the packet; when it cannot be, the body carries the fields of
 * both, which is each documented body (neither forbids other fields).
 */
export function clientErrorResponse(
  error: { code?: string; rawPacket?: Buffer },
  requestId: string = randomUUID(),
): string {
  const [status, reason, description] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request line or its headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request was not received in time.']
        : [400, 'Bad Request', 'The request is not valid HTTP.'];
  const body: ApiErrorBody = {
    type: ErrorType.ValidationError,
    code: ErrorCode.InvalidInput,
    description,
    requestId,
  };
  const family = familyOf(error.rawPacket);
  const text = JSON.stringify(
    family === 'v1'
      ? toLegacyErrorBody(body)
      : family === 'v2'
        ? body
        : { ...body, ...toLegacyErrorBody(body) },
  );
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `X-Request-Id: ${requestId}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`
  );
}
