import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ErrorCode, ErrorType } from '@fleet/errors';
import { applyDecorators, INestApplication, Type } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiExtension,
  ApiExtraModels,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  ApiSchema,
  DocumentBuilder,
  getSchemaPath,
  OpenAPIObject,
  SwaggerModule,
} from '@nestjs/swagger';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * OpenAPI building blocks shared by every controller, so that a route documents its request, its
 * success shape and the pipeline's errors in a few lines. The document is generated from the
 * controllers of all services (`npm run openapi`), committed, and served by auth; see docs/openapi.md.
 */

export const OPENAPI_JSON_PATH = '/v2/api/openapi.json';
export const OPENAPI_UI_PATH = '/v2/api/docs';

/** Name of the bearer security scheme in the document. */
export const BEARER_SCHEME = 'bearer';

@ApiSchema({ name: 'ApiError' })
export class ApiErrorDoc {
  @ApiProperty({ enum: ErrorType, example: ErrorType.ValidationError })
  type!: ErrorType;

  @ApiProperty({ enum: ErrorCode, example: ErrorCode.InvalidInput })
  code!: ErrorCode;

  @ApiProperty({ example: 'pageSize: must not be greater than 500' })
  description!: string;

  @ApiProperty({ description: 'Also in the X-Request-Id response header.', example: 'b3c1d5e2-...' })
  requestId!: string;

  @ApiPropertyOptional({ format: 'uri' })
  docUrl?: string;
}

/** The 403 of an authenticated route once the token's company or an ancestor is suspended. */
@ApiSchema({ name: 'CompanySuspendedError' })
export class CompanySuspendedDoc {
  @ApiProperty({ enum: ['CompanySuspended'] })
  code!: 'CompanySuspended';

  @ApiProperty({ example: 'The company is suspended.' })
  message!: string;
}

/** Error body of the V1 interface (docs/auth.md). */
@ApiSchema({ name: 'LegacyError' })
export class LegacyErrorDoc {
  @ApiProperty({ enum: ['Error'] })
  Status!: 'Error';

  @ApiProperty({ enum: ErrorCode })
  Code!: ErrorCode;

  @ApiProperty()
  Message!: string;

  @ApiProperty()
  RequestId!: string;
}

/** What each status means on this interface; one row per status an operation can document. */
const errorMeaning: Record<number, string> = {
  401: 'AUTHENTICATION/INVALID_CREDENTIALS: the bearer token (or, on token routes, the credentials) is missing, malformed, wrongly signed or expired.',
  403: 'AUTHORIZATION/INVALID_SCOPE when the token lacks the permission, or the company (or one above it) is suspended.',
  404: 'RESOURCE/NOT_FOUND: the resource does not exist or the token cannot reach it.',
  409: 'RESOURCE_CONFLICT/RESOURCE_IN_USE: the resource is still used by another; the description names it.',
  410: 'The route is past its sunset date.',
  422: 'VALIDATION_ERROR/INVALID_INPUT: a route, query or body value is missing or cannot be parsed; the description names it.',
  429: 'RATE_LIMIT/RATE_LIMIT_EXCEEDED: a rate-limit window of this API key and endpoint is used up; Retry-After gives its length in seconds.',
  500: 'SERVER_ERROR/INTERNAL_SERVER_ERROR: an unexpected failure; the body carries no internals.',
  503: 'SERVER_ERROR/SERVICE_UNAVAILABLE: the broker could not take the positions now (overload or outage); nothing was accepted, retry after Retry-After seconds.',
};

const rateLimitHeaders = {
  'X-RateLimit-Limit': { description: 'Limit of the most constrained window.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in that window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': {
    description: 'Unix time (seconds) when that window resets.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Policy': { description: 'Every window, e.g. `60;w=60`.', schema: { type: 'string' } },
};

function errorResponse(status: number, legacy: boolean): MethodDecorator & ClassDecorator {
  const description = errorMeaning[status];
  const family = getSchemaPath(legacy ? LegacyErrorDoc : ApiErrorDoc);
  if (status === 403) {
    // The suspension body is the spec's on every authenticated route, V1 included (docs/auth.md).
    return ApiResponse({
      status,
      description,
      schema: { oneOf: [{ $ref: family }, { $ref: getSchemaPath(CompanySuspendedDoc) }] },
    });
  }
  if (legacy) return ApiResponse({ status, description, schema: { $ref: family } });
  if (status === 429 || status === 503) {
    return ApiResponse({
      status,
      description,
      headers: {
        'Retry-After': {
          schema: { type: 'integer' },
          description: status === 429 ? 'Window length, seconds.' : 'Seconds to wait before retrying.',
        },
      },
      schema: { $ref: getSchemaPath(ApiErrorDoc) },
    });
  }
  return ApiResponse({ status, description, schema: { $ref: getSchemaPath(ApiErrorDoc) } });
}

/** Documents V2 error responses with the ApiError body (403 also with the CompanySuspended body). */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ApiErrorDoc, CompanySuspendedDoc),
    ...statuses.map((status) => errorResponse(status, false)),
  );
}

/** Documents V1 error responses with the legacy body. */
export function ApiLegacyErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(LegacyErrorDoc, CompanySuspendedDoc),
    ...statuses.map((status) => errorResponse(status, true)),
  );
}

/**
 * An authenticated route: bearer token, the pipeline's errors (401, 403, 429, 500) and the
 * rate-limit headers of its success response.
 */
export function ApiAuthenticated(options: { legacy?: boolean } = {}): MethodDecorator & ClassDecorator {
  const errors = options.legacy ? ApiLegacyErrors(401, 403, 429, 500) : ApiErrors(401, 403, 429, 500);
  return applyDecorators(ApiBearerAuth(BEARER_SCHEME), errors);
}

/** The success response of a rate-limited route, with its X-RateLimit-* headers (201 for a creation). */
export function ApiSuccess(
  type: Type | [Type],
  description = 'OK',
  options: { rateLimited?: boolean; status?: 200 | 201 } = {},
): MethodDecorator {
  const response = {
    type,
    description,
    headers: options.rateLimited === false ? undefined : rateLimitHeaders,
  };
  return options.status === 201 ? ApiCreatedResponse(response) : ApiOkResponse(response);
}

/** The vendor extension that marks an operation as an extension of the spec's interface. */
export const INTERFACE_EXTENSION = 'x-interface-extension';

/**
 * An operation the spec does not have (alert management, geofences): `x-interface-extension: true`
 * on the operation, so that clients and tools tell the spec's routes from ours (docs/openapi.md).
 */
export function ApiInterfaceExtension(): MethodDecorator & ClassDecorator {
  return ApiExtension(INTERFACE_EXTENSION, true);
}

/** The pagination envelope around `item`, plus any extra top-level properties of the list response. */
export function ApiPageOf(item: Type, description = 'One page of results'): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(item),
    ApiOkResponse({
      description,
      headers: rateLimitHeaders,
      schema: {
        type: 'object',
        required: ['items', 'totalResults', 'lastResultIndex', 'currentPage', 'numberOfPages'],
        properties: {
          items: { type: 'array', items: { $ref: getSchemaPath(item) } },
          totalResults: { type: 'integer' },
          lastResultIndex: {
            type: 'integer',
            description: '1-based index of the last record on this page; 0 when empty.',
          },
          currentPage: { type: 'integer' },
          numberOfPages: { type: 'integer' },
        },
      },
    }),
  );
}

/** The document's frame: title, version, servers and the bearer scheme. */
export function openApiFrame(): Omit<OpenAPIObject, 'paths'> {
  return new DocumentBuilder()
    .setTitle('Fleet Telemetry Service')
    .setDescription(
      'Positions, trips, alerts, commands and webhooks of a company fleet. V2 under `/v2/api`, the legacy V1 ' +
        'interface under `/api`, device ingestion under `/ingest`. Obtain a bearer token with ' +
        '`POST /v2/api/authentication/token/api-key`.',
    )
    .setVersion('2')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, BEARER_SCHEME)
    .build();
}

/**
 * Generates the document from the controllers of `app` (which may be created in preview mode). Paths
 * and schemas are sorted by name, so that the committed document changes only when the interface
 * does, not when a route moves to another controller or a module is registered in another order.
 */
export function generateOpenApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(app, openApiFrame(), {
    operationIdFactory: (controllerKey, methodKey) =>
      `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
  const byName = <T>(record: Record<string, T>): Record<string, T> =>
    Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  document.paths = byName(document.paths);
  if (document.components?.schemas) document.components.schemas = byName(document.components.schemas);
  return document;
}

const uiAssets = ['swagger-ui.css', 'swagger-ui-bundle.js'] as const;

/** The interactive page: Swagger UI (from the swagger-ui-dist package) pointed at the served document. */
const uiPage = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Fleet Telemetry API</title>
<link rel="stylesheet" href="${OPENAPI_UI_PATH}/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="${OPENAPI_UI_PATH}/swagger-ui-bundle.js"></script>
<script src="${OPENAPI_UI_PATH}/init.js"></script>
</body>
</html>
`;

const uiInit = `window.ui = SwaggerUIBundle({ url: '${OPENAPI_JSON_PATH}', dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: true });\n`;

/**
 * Serves `document` as JSON and an interactive page for it, anonymously. Plain Fastify routes with
 * the UI's two assets read once at startup: no static-file plugin, nothing served from disk per request.
 */
export function serveOpenApiDocument(app: NestFastifyApplication, document: object): void {
  const fastify = app.getHttpAdapter().getInstance();
  const assetDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  const body = JSON.stringify(document);
  fastify.get(OPENAPI_JSON_PATH, (_request, reply) => {
    void reply.type('application/json; charset=utf-8').send(body);
  });
  fastify.get(OPENAPI_UI_PATH, (_request, reply) => {
    void reply.type('text/html; charset=utf-8').send(uiPage);
  });
  fastify.get(`${OPENAPI_UI_PATH}/init.js`, (_request, reply) => {
    void reply.type('text/javascript; charset=utf-8').send(uiInit);
  });
  for (const asset of uiAssets) {
    const content = readFileSync(join(assetDir, asset));
    const type = asset.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
    fastify.get(`${OPENAPI_UI_PATH}/${asset}`, (_request, reply) => {
      void reply.type(type).header('cache-control', 'public, max-age=86400').send(content);
    });
  }
}
