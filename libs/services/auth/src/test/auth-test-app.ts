import { openApiDocument, RouteOwnership } from '@fleet/contracts';
import {
  CompanyDirectory,
  createServiceApp,
  EnvReader,
  readServiceConfig,
  startServiceApp,
} from '@fleet/platform';
import { createTestDatabase, TestDatabase, testJwtSecret, waitFor } from '@fleet/testing';
import { DynamicModule, Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuthModule } from '../auth.module';
import { readAuthServiceConfig } from '../tokens/auth-service.config';

export interface AuthTestApp {
  app: NestFastifyApplication;
  database: TestDatabase;
  close(): Promise<void>;
  /** Waits until the process's company projection holds `companyId` at `status`. */
  waitForCompany(companyId: number, status: string): Promise<void>;
}

/**
 * The auth service on a fresh database, in one process with the in-process transport, serving
 * requests through the real HTTP pipeline (`app.inject`).
 */
export async function startAuthTestApp(
  env: Record<string, string> = {},
  extra: { modules?: (Type | DynamicModule)[]; routes?: readonly RouteOwnership[] } = {},
): Promise<AuthTestApp> {
  const database = await createTestDatabase();
  const reader = new EnvReader({
    DATABASE_URL: database.url,
    AUTH_JWT_SECRET: testJwtSecret,
    MESSAGING_TRANSPORT: 'in-process',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const config = readServiceConfig('auth', reader, { httpPort: 0 });
  const authConfig = readAuthServiceConfig(reader);
  reader.assertValid();
  const app = await createServiceApp(config, [AuthModule.forRoot(authConfig), ...(extra.modules ?? [])], {
    routes: extra.routes,
    // As apps/auth/src/main.ts: auth serves the interface's OpenAPI document.
    openApiDocument,
  });
  await startServiceApp(app, { ...config, http: { host: '127.0.0.1', port: 0 } });
  const directory = app.get(CompanyDirectory);
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.drop();
    },
    waitForCompany: async (companyId, status) => {
      await waitFor(() => directory.get(companyId)?.status === status, {
        timeoutMs: 5_000,
        description: `company ${companyId} to be ${status} in the projection`,
      });
    },
  };
}
