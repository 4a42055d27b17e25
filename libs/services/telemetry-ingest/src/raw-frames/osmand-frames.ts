import { parse as parseQueryString, stringify as stringifyQueryString } from 'node:querystring';
import type { FastifyRequest } from 'fastify';
import { DeviceReport, OsmAndFields, parseOsmAndFields, parseOsmAndJson } from '../osmand/osmand-report';
import { ReceivedFrame } from './frame-chunk';

type Fields = OsmAndFields;

/** An OsmAnd request as the archive keeps it: what the listener's parsers read, and nothing else. */
export interface OsmAndRequest {
  method: string;
  /** Path and query string, as sent. */
  url: string;
  contentType?: string;
  /**
   * The body as the listener's content parsers left it (fields of a form or text body, JSON's value),
   * or undefined when there was none or it could not be parsed.
   */
  body?: unknown;
}

const isJson = (contentType: string | undefined) => (contentType ?? '').includes('application/json');
/** The device secret's parameter (docs/device-settings.md): never archived. */
const SECRET = 'secret';
const isSecret = (name: string) => name.toLowerCase() === SECRET;
const LINE = '\r\n';
/** The longest IMEI taken from a request's fields (the parser's own limit). */
const MAX_DEVICE_ID_LENGTH = 64;

/** The URL without its `secret` query parameter (any letter case). */
function withoutSecretParameter(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const kept = url
    .slice(mark + 1)
    .split('&')
    .filter((pair) => {
      const name = pair.split('=', 1)[0];
      try {
        return !isSecret(decodeURIComponent(name.replace(/\+/g, ' ')));
      } catch {
        return !isSecret(name);
      }
    });
  return kept.length === 0 ? url.slice(0, mark) : `${url.slice(0, mark)}?${kept.join('&')}`;
}

/** An object's members but `secret` (any letter case). */
function withoutSecretMember(body: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([name]) => !isSecret(name)));
}

/**
 * The archived bytes of an OsmAnd request, in the shape of the HTTP request itself: request line,
 * content type, blank line, body (a JSON body written as JSON, a form or text body as a query string),
 * so that the hex of a listing reads as the request and {@link parseOsmAndFrame} can re-parse it. The
 * device secret is left out wherever it was sent: the archive is read by operators, and the secret is
 * stored nowhere else but as a hash.
 */
export function encodeOsmAndFrame(request: OsmAndRequest): Buffer {
  const head = [`${request.method} ${withoutSecretParameter(request.url)}`];
  if (request.contentType) head.push(`content-type: ${request.contentType}`);
  let body = '';
  const value = request.body;
  if (typeof value === 'string') {
    body = isJson(request.contentType)
      ? JSON.stringify(value)
      : stringifyQueryString(withoutSecretMember(parseQueryString(value)) as Fields);
  } else if (value !== undefined && value !== null) {
    const kept = typeof value === 'object' && !Array.isArray(value) ? withoutSecretMember(value) : value;
    body = isJson(request.contentType) ? JSON.stringify(kept) : stringifyQueryString(kept as Fields);
  }
  return Buffer.from(`${head.join(LINE)}${LINE}${LINE}${body}`, 'utf8');
}

/**
 * A request of the OsmAnd port as a frame to archive (its outcome to be set by the listener): its
 * IMEI read leniently, so that a request the parser refuses is found by its device too. Never throws
 * into the listener: a request that cannot be written down is archived without its bytes.
 */
export function osmandFrame(request: FastifyRequest, outcome = 'error: no outcome'): ReceivedFrame {
  const archived: OsmAndRequest = {
    method: request.method,
    url: request.url,
    contentType: request.headers['content-type'],
    body: request.body,
  };
  const frame: ReceivedFrame = {
    protocol: 'osmand',
    peer: request.socket.remoteAddress ?? '',
    receivedAt: new Date(),
    bytes: Buffer.alloc(0),
    outcome,
  };
  try {
    frame.imei = osmandDeviceId(archived);
    frame.bytes = encodeOsmAndFrame(archived);
  } catch {
    // Kept as it is: its time, sender and outcome still say that it came.
  }
  return frame;
}

/** The request of archived bytes (the inverse of {@link encodeOsmAndFrame}). */
export function decodeOsmAndFrame(bytes: Buffer): OsmAndRequest {
  const text = bytes.toString('utf8');
  const blank = text.indexOf(`${LINE}${LINE}`);
  const [requestLine, ...headers] = (blank < 0 ? text : text.slice(0, blank)).split(LINE);
  const space = requestLine.indexOf(' ');
  const contentType = headers
    .find((header) => header.toLowerCase().startsWith('content-type:'))
    ?.slice('content-type:'.length)
    .trim();
  const rawBody = blank < 0 ? '' : text.slice(blank + 2 * LINE.length);
  let body: unknown;
  if (rawBody !== '') body = isJson(contentType) ? JSON.parse(rawBody) : parseQueryString(rawBody);
  return {
    method: space < 0 ? requestLine : requestLine.slice(0, space),
    url: space < 0 ? '' : requestLine.slice(space + 1),
    ...(contentType ? { contentType } : {}),
    ...(body === undefined ? {} : { body }),
  };
}

/** The query string's fields of a request's URL. */
function queryFields(url: string): Fields {
  const mark = url.indexOf('?');
  return mark < 0 ? {} : parseQueryString(url.slice(mark + 1));
}

/** Parses an archived request as the listener does: the JSON variant, or query and form fields together. */
export function parseOsmAndRequest(request: OsmAndRequest): DeviceReport {
  if (isJson(request.contentType)) return parseOsmAndJson(request.body, queryFields(request.url));
  const body = typeof request.body === 'object' && request.body !== null ? (request.body as Fields) : {};
  return parseOsmAndFields({ ...queryFields(request.url), ...body });
}

export function parseOsmAndFrame(bytes: Buffer): DeviceReport {
  return parseOsmAndRequest(decodeOsmAndFrame(bytes));
}

/**
 * The IMEI a request names, read leniently (`id` or `deviceid` in any letter case, JSON's `device_id`),
 * also from a request the parser refuses: that is the request a replay after a parser fix must find.
 */
export function osmandDeviceId(request: OsmAndRequest): string | undefined {
  let value: unknown;
  if (isJson(request.contentType)) {
    const body = request.body;
    value =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>).device_id : undefined;
  } else {
    const body = typeof request.body === 'object' && request.body !== null ? (request.body as Fields) : {};
    const fields = new Map(
      Object.entries({ ...queryFields(request.url), ...body }).map(([name, raw]) => [
        name.toLowerCase(),
        Array.isArray(raw) ? raw[raw.length - 1] : raw,
      ]),
    );
    value = fields.get('id') || fields.get('deviceid');
  }
  if (typeof value === 'number') value = String(value);
  if (typeof value !== 'string') return undefined;
  const id = value.trim();
  return id !== '' && id.length <= MAX_DEVICE_ID_LENGTH ? id : undefined;
}
