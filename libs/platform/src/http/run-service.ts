import { DynamicModule, Logger, Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError, EnvReader } from '../config/env-reader';
import { ServiceConfig } from '../config/service-config';
import { flushTraces } from '../tracing/trace-context';
import { createServiceApp, ServiceAppOptions, startServiceApp } from './create-service-app';

/** sysexits' EX_CONFIG: orchestrators and humans can tell a bad setting from a crash. */
const EXIT_BAD_CONFIG = 78;

/** Reads and validates configuration; on a bad or missing setting, says which and exits. */
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
    process.exit(EXIT_BAD_CONFIG);
  }
}

/**
 * Runs `cleanup` once on SIGINT or SIGTERM, then exits. A second signal, or a cleanup that hangs
 * past the grace period, exits at once.
 */
export function onShutdownSignal(cleanup: (signal: NodeJS.Signals) => Promise<void>, graceMs = 20_000): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    const logger = new Logger('Shutdown');
    logger.log({ msg: 'stopping', signal });
    setTimeout(() => {
      logger.error({ msg: 'shutdown took too long; exiting', graceMs });
      process.exit(1);
    }, graceMs).unref();
    cleanup(signal)
      .finally(flushTraces)
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ msg: 'shutdown failed', err: error });
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

/** The whole `main` of a distributed service: config, app, graceful stop on signals; exit 1 if it cannot start. */
export async function runService<C extends ServiceConfig>(
  service: string,
  readConfig: (env: EnvReader) => C,
  modules: (config: C) => (Type | DynamicModule)[],
  options: ServiceAppOptions = {},
): Promise<NestFastifyApplication | undefined> {
  const config = loadConfigOrExit(service, readConfig);
  try {
    const app = await createServiceApp(config, modules(config), options);
    onShutdownSignal(() => app.close());
    await startServiceApp(app, config);
    return app;
  } catch (error) {
    new Logger('Bootstrap').fatal({ msg: 'failed to start', err: error });
    process.exit(1);
  }
}
