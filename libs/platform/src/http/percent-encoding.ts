import { isUtf8 } from 'node:buffer';
import { parse } from 'node:querystring';
import { NotUtf8BodyError } from './utf8-body';

/**
 * The first field of a query string or urlencoded form (`a=1&b=2`) whose name or value does not
 * decode to text: a malformed escape (`%ZZ`, a lone `%`) or escapes that are not UTF-8 (`%FF%FE`, the
 * lone surrogate `%ED%A0%80`). fast-querystring, which Fastify and Nest parse both with, keeps such a
 * value as it came, so `name=%ED%A0%80` would be stored as the nine characters `%ED%A0%80` (Node's
 * querystring would turn it into U+FFFD). Returns
 * the field's name as far as it can be read, for the 422's description; undefined when all is well.
 */
export function undecodableField(encoded: string): string | undefined {
  if (!encoded.includes('%')) return undefined;
  for (const pair of encoded.split('&')) {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    const value = equals < 0 ? '' : pair.slice(equals + 1);
    const nameText = decoded(name);
    if (nameText === undefined) return `${name.slice(0, 64)} (its name)`;
    if (decoded(value) === undefined) return nameText.slice(0, 64);
  }
  return undefined;
}

function decoded(part: string): string | undefined {
  if (!part.includes('%')) return part;
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** A client's mistake Fastify's error path turns into the spec's 422 (it carries a 4xx statusCode). */
class UndecodableFormError extends Error {
  readonly statusCode = 400;
}

/**
 * The urlencoded body parser: a body whose raw bytes are no UTF-8 (they would read as U+FFFD) or a
 * field that does not decode is the client's 422 instead of a value kept with its escapes. What
 * passes is parsed by Node's querystring, which for decodable text gives what Nest's fast-querystring
 * gave (repeated names as arrays, `+` as a space, no prototype), with no limit on the number of fields.
 */
export function parseUrlencodedStrictly(
  _request: unknown,
  body: Buffer,
  done: (error: Error | null, parsed?: unknown) => void,
): void {
  if (!isUtf8(body)) return done(new NotUtf8BodyError());
  const text = body.toString();
  const field = undecodableField(text);
  if (field !== undefined) done(new UndecodableFormError(undecodableMessage(field)));
  else done(null, parse(text, '&', '=', { maxKeys: 0 }));
}

export const undecodableMessage = (field: string) =>
  `${field}: not valid percent-encoded UTF-8 text (a malformed escape, or bytes that are no UTF-8 character)`;
