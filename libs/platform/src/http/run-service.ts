import { DynamicModule, Logger, Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError, EnvReader } from '../config/env-reader';
import { ServiceConfig } from '../config/service-config';
import { HealthRegistry } from '../health/health.registry';
import { installJsonLogging } from '../logging/logger';
import { checkDependencies } from '../runtime/dependency-check';
import { ExitCodes, StartupError } from '../runtime/exit-codes';
import { LifecycleConfig, readLifecycleConfig, readRouteDirectory } from '../runtime/lifecycle-config';
import { flushTraces } from '../tracing/trace-context';
import { createServiceApp, ServiceAppOptions, startServiceApp } from './create-service-app';

/** Reads and validates configuration; on a bad or missing setting, says which and exits 78. */
export function loadConfigOrExit<T>(service: string, read: (env: EnvReader) => T): T {
  const env = new EnvReader();
  try {
    const config = read(env);
    env.assertValid();
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(
      `${JSON.stringify({ level: 'fatal', service, msg: error.message, problems: error.problems })}\n`,
    );
    process.exit(ExitCodes.config);
  }
}

/**
 * Runs `cleanup` once on SIGINT or SIGTERM, then exits 0. A second signal, a failed cleanup, or a
 * cleanup still running after `graceMs` exits 1 at once (logged).
 */
export function onShutdownSignal(cleanup: (signal: NodeJS.Signals) => Promise<void>, graceMs = 20_000): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    const logger = new Logger('Shutdown');
    if (stopping) {
      logger.error({ msg: 'second signal during shutdown; exiting now', signal });
      process.exit(ExitCodes.failure);
    }
    stopping = true;
    logger.log({ msg: 'stopping', signal, timeoutMs: graceMs });
    setTimeout(() => {
      logger.error({ msg: 'shutdown took too long; exiting', timeoutMs: graceMs });
      process.exit(ExitCodes.failure);
    }, graceMs).unref();
    cleanup(signal)
      .finally(flushTraces)
      .then(
        () => {
          logger.log({ msg: 'stopped' });
          process.exit(ExitCodes.ok);
        },
        (error: unknown) => {
          logger.error({ msg: 'shutdown failed', err: error });
          process.exit(ExitCodes.failure);
        },
      );
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

/**
 * The graceful stop of a service (docs/service-lifecycle.md): readiness turns 503 at once; HTTP keeps
 * serving for the drain period so the edge takes the replica out before connections are refused;
 * then Nest closes the app in its order: pollers' destroy hooks, HTTP (in-flight requests finish,
 * new connections are refused), the consumers (the batch in hand finishes and its offsets are
 * committed), then the shutdown hooks (the outbox's last relay, producer, Redis, database).
 */
export async function stopGracefully(app: NestFastifyApplication, lifecycle: LifecycleConfig): Promise<void> {
  app.get(HealthRegistry).beginShutdown();
  if (lifecycle.shutdownDrainMs > 0) {
    new Logger('Shutdown').log({ msg: 'draining: readiness is 503', drainMs: lifecycle.shutdownDrainMs });
    await new Promise((resolve) => setTimeout(resolve, lifecycle.shutdownDrainMs));
  }
  await app.close();
}

/** Logs why the start failed and exits with the code that tells an operator what to do (ExitCodes). */
function exitOnStartFailure(error: unknown): never {
  const logger = new Logger('Bootstrap');
  if (error instanceof StartupError) {
    logger.fatal({ msg: error.message, exitCode: error.exitCode, ...error.details });
    process.exit(error.exitCode);
  }
  logger.fatal({ msg: 'failed to start', err: error });
  process.exit(ExitCodes.failure);
}

/**
 * The whole `main` of a distributed service: config (exit 78 when bad), its dependencies reachable
 * (exit 69 when not), app, graceful stop on signals; exit 1 if it cannot start for another reason.
 */
export async function runService<C extends ServiceConfig>(
  service: string,
  readConfig: (env: EnvReader) => C,
  modules: (config: C) => (Type | DynamicModule)[],
  options: ServiceAppOptions = {},
): Promise<NestFastifyApplication | undefined> {
  const { config, lifecycle, routeDirectory } = loadConfigOrExit(service, (env) => ({
    config: readConfig(env),
    lifecycle: readLifecycleConfig(env),
    routeDirectory: readRouteDirectory(env),
  }));
  // JSON from the first line, also for a start that fails before the app exists.
  installJsonLogging(config.service, config.log.level);
  try {
    await checkDependencies(config, lifecycle.startupWaitMs);
    const app = await createServiceApp(config, modules(config), { routeDirectory, ...options });
    onShutdownSignal(() => stopGracefully(app, lifecycle), lifecycle.shutdownTimeoutMs);
    await startServiceApp(app, config);
    return app;
  } catch (error) {
    return exitOnStartFailure(error);
  }
}
