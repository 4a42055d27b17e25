import { isUtf8 } from 'node:buffer';

/** A body whose bytes are no UTF-8 text: Fastify's error path makes it the spec's 422. */
export class NotUtf8BodyError extends Error {
  readonly statusCode = 400;

  constructor() {
    super('request body is not valid UTF-8: a JSON or form body must be UTF-8 text; nothing was changed');
  }
}

/** Fastify's JSON parser (`getDefaultJsonParser`): calls `done`, returns nothing that matters. */
type BodyParser = (
  request: never,
  body: string,
  done: (error: Error | null, parsed?: unknown) => void,
) => unknown;

/**
 * The JSON body parser: reads the body as bytes and refuses one that is not UTF-8, then parses it with
 * Fastify's own JSON parser (`jsonParser`: its prototype-poisoning rules, its empty-body and syntax
 * errors). Fastify's default reads JSON as a string: invalid bytes became U+FFFD, 3 bytes each, so a
 * body with a Content-Length was refused as "Request body size did not match Content-Length" (true of
 * the decoded text, not of what was sent), and a chunked one was parsed with U+FFFD in its values.
 */
export function parseJsonAsUtf8(jsonParser: BodyParser) {
  return (request: unknown, body: Buffer, done: (error: Error | null, parsed?: unknown) => void): void => {
    if (!isUtf8(body)) done(new NotUtf8BodyError());
    else jsonParser(request as never, body.toString('utf8'), done);
  };
}
