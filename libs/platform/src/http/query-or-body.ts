import { ApiException } from '@fleet/errors';
import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';

/**
 * Merges the fields of a JSON, form or multipart body into the query, the query winning where both
 * give a field, before the route's pipes run: the route reads one `@Query()` DTO, checked and
 * converted once by the global rules, and documented as query parameters as before. A body that is
 * not an object of fields (a JSON array or text) is the client's 422.
 */
@Injectable()
export class QueryOverBody implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const { body } = request;
    if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      throw ApiException.invalidInput('body: must be an object of fields (JSON, form or multipart)');
    }
    request.query = { ...(body ?? {}), ...(request.query as object) };
    return next.handle();
  }
}

/**
 * A route whose inputs may be query parameters (the spec's convention) or fields of a JSON, form or
 * multipart body; its handler reads them all with `@Query()`.
 */
export const InputsFromQueryOrBody = (): MethodDecorator => applyDecorators(UseInterceptors(QueryOverBody));
