import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
  private readonly logger = new Logger('HttpError');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') {
      // Event handlers have their own failure path (retries, then the dead-letter topic).
      throw exception;
    }
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (exception instanceof CompanySuspendedException) {
      void reply.status(exception.status).send(exception.body());
      return;
    }
    const error = toHttpError(exception, String(request.id));
    if (error.unexpected) {
      this.logger.error({
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
}
