import { basename, dirname } from 'node:path';

/**
 * Imported first by every service's `main.ts` (`import '@fleet/platform-tracing'`): turns tracing on
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set, before `http`, `pg` and `kafkajs` are loaded, so that the
 * instrumentations can patch them. When it is not set, nothing of the SDK is loaded at all: the
 * services then only meet `@opentelemetry/api`'s no-op implementation.
 */

/** `dist/apps/<service>/src/main.js` names its service; OTEL_SERVICE_NAME overrides it. */
function serviceName(): string {
  const main = process.argv[1] ?? '';
  return process.env.OTEL_SERVICE_NAME || basename(dirname(dirname(main))) || 'fleet';
}

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT && process.env.OTEL_SDK_DISABLED !== 'true') {
  // A synchronous require, not an import: the SDK must be in place before the next import of main.ts
  // runs, and must not be loaded at all when tracing is off.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./sdk') as typeof import('./sdk')).startTracing(serviceName());
}
