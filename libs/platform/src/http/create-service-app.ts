import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import { findPublicRoute, HttpMethod, publicRoutes, RouteOwnership, toFrameworkPath } from '@fleet/contracts';
import {
  ApiErrorRow,
  ApiException,
  clientErrorResponse,
  GlobalExceptionFilter,
  sendHttpError,
} from '@fleet/errors';
import { DynamicModule, Logger, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger as PinoLogger } from 'pino';
import { isUnversioned } from '../auth/unversioned';
import { HttpConfig, ServiceConfig } from '../config/service-config';
import { installJsonLogging } from '../logging/logger';
import { createEventServer } from '../messaging/messaging.module';
import { PlatformModule } from '../platform.module';
import { installHttpMetrics } from '../metrics/http-metrics';
import { isAddressInUse, portInUse } from '../runtime/exit-codes';
import { RouteDirectory } from '../runtime/lifecycle-config';
import { applyServiceV8Flags } from '../runtime/v8-flags';
import { serveConsole } from './console';
import { checkMultipart } from './multipart-end';
import { serveOpenApiDocument } from './openapi';
import { parseUrlencodedStrictly, undecodableField, undecodableMessage } from './percent-encoding';
import { parseJsonAsUtf8 } from './utf8-body';
import { createValidationPipe } from './validation';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Honour a caller's X-Request-Id (a proxy's, a client's) when it is sane; otherwise make one. */
function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Largest request line plus headers answered (bytes, as Node's parser counts by default). */
export const MAX_REQUEST_HEAD_BYTES = 16_384;

/**
 * What Node's HTTP parser may read before it refuses a request itself. Larger than
 * {@link MAX_REQUEST_HEAD_BYTES}, so that the refusal usually comes from the pipeline, which knows the
 * URL and so the route family's error body: the parser's own refusal sees only the TCP chunk that
 * crossed its limit, which for a long URL rarely holds the request line.
 */
const PARSER_HEAD_LIMIT = 65_536;

/** The size of the request line and headers of `request`, as they came. */
export function requestHeadBytes(request: { method?: string; url?: string; rawHeaders: string[] }): number {
  let bytes = `${request.method ?? ''} ${request.url ?? ''} HTTP/1.1\r\n`.length + 2;
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    bytes += request.rawHeaders[index].length + request.rawHeaders[index + 1].length + 4;
  }
  return bytes;
}

const MULTIPART = /^\s*multipart\/form-data\b/i;
const BOUNDARY = /;\s*boundary=("[^"]+"|[^;\s]+)/i;

/** Query parameters that carry a credential: kept out of the access log. */
const CREDENTIAL_PARAMETERS = /^(access_token|token|apikey|api_key|key|password|secret)$/i;

/** Fastify's `trustProxy` for the configured proxies: false (the TCP peer is the client) when none. */
export function trustProxyOf(http: Pick<HttpConfig, 'trustedProxies'>): string | false {
  return http.trustedProxies.length > 0 ? http.trustedProxies.join(',') : false;
}

/** `url` with the values of credential parameters replaced, for the access log. */
export function withoutCredentials(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const kept = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0];
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as it came.
      }
      return CREDENTIAL_PARAMETERS.test(decoded) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, query)}?${kept.join('&')}`;
}

/**
 * The 404 of a public route this process does not serve, naming the service that does and where it
 * is (SERVICE_URL_<NAME>): a newcomer calling a service directly, without the edge, learns where to go.
 */
export function notServedHere(
  method: string,
  path: string,
  directory: RouteDirectory,
): ApiException | undefined {
  const route = findPublicRoute(method.toUpperCase() as HttpMethod, path.split('?', 1)[0]);
  if (!route) return undefined;
  return ApiException.of(
    ApiErrorRow.NotFound,
    `${route.method} ${route.path} is not served by this service: it is served by ${route.owner} ` +
      `(${directory.serviceUrls[route.owner]}), or through the entry point ${directory.publicBaseUrl}.`,
  );
}

function installRequestPipeline(
  app: NestFastifyApplication,
  logger: PinoLogger,
  routes: readonly RouteOwnership[],
  directory: RouteDirectory | undefined,
): void {
  const sunsets = new Map(
    routes
      .filter((route) => route.sunset)
      .map((route) => [`${route.method} ${toFrameworkPath(route.path)}`, route.sunset!]),
  );
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    if (requestHeadBytes(request.raw) > MAX_REQUEST_HEAD_BYTES) {
      sendHttpError(ApiException.headersTooLarge(), request, reply);
      return;
    }
    // A query value whose escapes do not decode would otherwise reach the route with its escapes.
    const query = request.url.indexOf('?');
    const undecodable = query < 0 ? undefined : undecodableField(request.url.slice(query + 1));
    if (undecodable !== undefined) {
      sendHttpError(ApiException.invalidInput(undecodableMessage(undecodable)), request, reply);
      return;
    }
    // @fastify/multipart fails without a boundary in a way no filter sees as the client's mistake.
    const contentType = request.headers['content-type'];
    if (contentType && MULTIPART.test(contentType)) {
      const boundary = BOUNDARY.exec(contentType)?.[1].replace(/^"(.*)"$/, '$1');
      if (!boundary) {
        sendHttpError(
          ApiException.invalidInput('content-type: multipart/form-data needs a boundary parameter'),
          request,
          reply,
        );
        return;
      }
      // A malformed part, or a body cut before its closing boundary, is a 422, not a 200 without the
      // field (multipart-end.ts says why busboy cannot tell).
      checkMultipart(request.raw, boundary);
    }
    if (request.routeOptions.url === undefined && directory) {
      // No route of this process matched: if another service owns it, say which.
      const elsewhere = notServedHere(request.method, request.url, directory);
      if (elsewhere) return sendHttpError(elsewhere, request, reply);
    }
    // Keyed by the route template Fastify matched: one lookup, no path matching per request.
    const sunsetAt = sunsets.get(`${request.method} ${request.routeOptions.url}`);
    if (!sunsetAt) return done();
    const sunset = new Date(sunsetAt);
    if (Date.now() > sunset.getTime()) {
      // Past its sunset date a deprecated route is gone (RFC 8594 allows 410).
      sendHttpError(ApiException.gone('This route has been retired.'), request, reply);
      return;
    }
    void reply.header('sunset', sunset.toUTCString());
    done();
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    // Every V2 response says its version, except every 429 (the rate limit's and the token routes'
    // backoff of failed attempts) and every 401: the spec's error table puts the bad-key 401 of the
    // token route in the bad-bearer row, "no X-API-Version" (docs/auth.md).
    const unversioned = reply.statusCode === 401 || reply.statusCode === 429 || isUnversioned(request);
    if (/^\/v2\/api(\/|$|\?)/.test(request.url) && !unversioned) void reply.header('x-api-version', '2');
    done(null, payload);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    logger.info(
      {
        requestId: request.id,
        method: request.method,
        url: withoutCredentials(request.url),
        statusCode: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
    done();
  });
}

export interface ServiceAppOptions {
  /** Largest request body accepted, in bytes. */
  bodyLimit?: number;
  /** The route table whose deprecations apply (tests pass their own). */
  routes?: readonly RouteOwnership[];
  /** Served at /v2/api/openapi.json with an interactive page at /v2/api/docs (by the route's owner). */
  openApiDocument?: Readonly<Record<string, unknown>>;
  /** Owners' addresses for the 404 of a route served elsewhere, and the document's `servers`. */
  routeDirectory?: RouteDirectory;
  /** Serves the web console at /console/ (by the route's owner; docs/console.md). */
  console?: boolean;
}

/**
 * Builds a service process: the service's modules on top of the platform (config, health, messaging),
 * Fastify with request ids, JSON logs, the global error filter and validation, and the event handlers
 * connected to the configured transport. Call {@link startServiceApp} to run it.
 */
export async function createServiceApp(
  config: ServiceConfig,
  modules: (Type | DynamicModule)[],
  options: ServiceAppOptions = {},
): Promise<NestFastifyApplication> {
  applyServiceV8Flags();
  const rootLogger = installJsonLogging(config.service, config.log.level);

  @Module({ imports: [PlatformModule.forRoot(config), ...modules] })
  class ServiceRootModule {}

  const bodyLimit = options.bodyLimit ?? 1_048_576;
  const adapter = new FastifyAdapter({
    logger: false,
    genReqId: requestIdOf,
    bodyLimit,
    http: { maxHeaderSize: PARSER_HEAD_LIMIT },
    // X-Forwarded-For is believed from these peers only (HTTP_TRUSTED_PROXIES), never from a client.
    trustProxy: trustProxyOf(config.http),
    // While closing (SIGTERM), a request on a kept-alive connection is served (with Connection: close),
    // not refused with Fastify's 503: the edge saw readiness turn 503 during the drain and stops sending.
    return503OnClosing: false,
    // Errors of Fastify's router (a malformed percent-encoding, a path value over its limit) and of
    // Node's HTTP parser (a request line over its 64 kB) come before any filter: give them the same bodies.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) =>
      sendHttpError(error, request, reply),
    clientErrorHandler: (error, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      // Node hands over the bytes it read as a Buffer, whatever fastify's types say.
      if (socket.writable)
        socket.write(clientErrorResponse(error as unknown as { code?: string; rawPacket?: Buffer }));
      socket.destroy(error);
    },
  });
  // No `logger` option: Nest keeps the JSON logger installed above.
  const app = await NestFactory.create<NestFastifyApplication>(ServiceRootModule, adapter);
  // Form fields of multipart bodies become body properties, like urlencoded ones (token routes accept both).
  await app.register(multipart, { attachFieldsToBody: 'keyValues' });
  // Urlencoded bodies whose escapes do not decode are a 422. Registering a parser keeps Nest from
  // installing its own two.
  app.useBodyParser('application/x-www-form-urlencoded', { bodyLimit }, parseUrlencodedStrictly);
  // JSON: Fastify's built-in parser (the one Nest would install), behind a UTF-8 check of the bytes.
  const fastify = app.getHttpAdapter().getInstance();
  const { onProtoPoisoning, onConstructorPoisoning } = fastify.initialConfig;
  app.useBodyParser(
    'application/json',
    { bodyLimit },
    parseJsonAsUtf8(
      fastify.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error'),
    ),
  );
  installRequestPipeline(app, rootLogger, options.routes ?? publicRoutes, options.routeDirectory);
  installHttpMetrics(app);
  if (options.openApiDocument) {
    const entryPoint = options.routeDirectory?.publicBaseUrl ?? `http://127.0.0.1:${config.http.port}`;
    serveOpenApiDocument(app, { ...options.openApiDocument, servers: [{ url: entryPoint }] });
  }
  if (options.console) serveConsole(app);
  app.useGlobalFilters(new GlobalExceptionFilter());
  app.useGlobalPipes(createValidationPipe());
  app.connectMicroservice(
    { strategy: createEventServer(app, config.messaging) },
    { inheritAppConfig: false },
  );
  return app;
}

/** Migrates, connects, starts consuming, then serves HTTP: traffic arrives only when all of it works. */
export async function startServiceApp(app: NestFastifyApplication, config: ServiceConfig): Promise<void> {
  await app.init();
  await app.startAllMicroservices();
  try {
    await app.listen({ port: config.http.port, host: config.http.host });
  } catch (error) {
    if (isAddressInUse(error)) throw portInUse('HTTP_PORT', config.http.host, config.http.port);
    throw error;
  }
  // What is bound (0.0.0.0 is every interface), not a URL guessed from it.
  const addresses = app
    .getHttpAdapter()
    .getInstance()
    .addresses()
    .map(({ address, family, port }) => (family === 'IPv6' ? `[${address}]:${port}` : `${address}:${port}`));
  new Logger('Bootstrap').log({ msg: 'listening', addresses });
}
