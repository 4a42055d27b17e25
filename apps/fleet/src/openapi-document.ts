import { readAlertEngineConfig } from '@fleet/alert-engine-service';
import { randomBytes } from 'node:crypto';
import { readAuthServiceConfig } from '@fleet/auth-service';
import { readCommandGatewayConfig } from '@fleet/command-gateway-service';
import { EnvReader, generateOpenApiDocument, PlatformModule, readServiceConfig } from '@fleet/platform';
import { readQueryApiConfig } from '@fleet/query-api-service';
import { readWebhookDispatcherConfig } from '@fleet/webhook-dispatcher-service';
import { readTelemetryIngestConfig } from '@fleet/telemetry-ingest-service';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { OpenAPIObject } from '@nestjs/swagger';
import { fleetModules } from './fleet-modules';

/** Where the committed document lives (served by auth, checked for drift by openapi.spec.ts). */
export const OPENAPI_DOCUMENT_FILE = 'libs/contracts/src/openapi/openapi.json';

/**
 * The OpenAPI document of every service's controllers. The app is created in Nest's preview mode:
 * the module graph is resolved but no provider runs, so no database, broker or secret is needed and
 * the settings below are placeholders that never leave this function.
 */
export async function generateFleetOpenApiDocument(): Promise<OpenAPIObject> {
  const env = new EnvReader({
    // Never used to sign anything: preview mode runs no provider.
    AUTH_JWT_SECRET: randomBytes(32).toString('hex'),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    DATABASE_URL: 'postgres://openapi.invalid/none',
    MESSAGING_TRANSPORT: 'in-process',
  });
  const config = {
    ...readServiceConfig('fleet', env, { httpPort: 3000 }),
    authService: readAuthServiceConfig(env),
    ingest: readTelemetryIngestConfig(env),
    queryApi: readQueryApiConfig(env),
    commandGateway: readCommandGatewayConfig(env),
    alertEngine: readAlertEngineConfig(env),
    webhookDispatcher: readWebhookDispatcherConfig(env),
  };
  env.assertValid();

  @Module({ imports: [PlatformModule.forRoot(config), ...fleetModules(config)] })
  class OpenApiRootModule {}

  const app = await NestFactory.create(OpenApiRootModule, new FastifyAdapter(), {
    preview: true,
    logger: false,
  });
  try {
    return generateOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

/** Stable text form of the document: what is committed and compared. */
export function serializeOpenApiDocument(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
