import 'reflect-metadata';
import { openApiDocument } from '@fleet/contracts';
import { DeviceListener } from '@fleet/telemetry-ingest-service';
import {
  createServiceApp,
  installJsonLogging,
  loadConfigOrExit,
  onShutdownSignal,
  startServiceApp,
} from '@fleet/platform';
import { ensureDemoTenant } from './demo-tenant';
import { EmbeddedDatabase, startEmbeddedDatabase } from './embedded-database';
import { fleetModules } from './fleet-modules';
import { readFleetConfig } from './fleet-config';

/** Every service module in one process: the platform as a newcomer first meets it. */
async function main(): Promise<void> {
  const config = loadConfigOrExit('fleet', readFleetConfig);
  installJsonLogging(config.service, config.log.level);
  let database: EmbeddedDatabase | undefined;
  let stopApp = async () => undefined as void;
  onShutdownSignal(async () => {
    await stopApp();
    await database?.stop();
  });

  if (config.embeddedDatabase) {
    database = await startEmbeddedDatabase(config.embeddedDatabase.dataDir, config.embeddedDatabase.port);
  }
  const effective = database ? { ...config, database: { ...config.database, url: database.url } } : config;

  const app = await createServiceApp(effective, fleetModules(config), { openApiDocument });
  stopApp = () => app.close();
  const host = config.http.host === '0.0.0.0' ? 'localhost' : config.http.host;
  const baseUrl = `http://${host}:${config.http.port}`;
  // The demo tenant exists before the app reports ready: a newcomer's first request finds it.
  await app.init();
  const osmand = `http://${host}:${app.get(DeviceListener).port}`;
  const credentials = config.seedDemoTenant
    ? await ensureDemoTenant(app, config.dataDir, { baseUrl, osmand })
    : undefined;
  await startServiceApp(app, effective);
  process.stdout.write(
    `\nFleet Telemetry is running at ${baseUrl}  (readiness: /health/ready, Ctrl-C stops it)\n` +
      `Trackers (OsmAnd protocol): ${osmand}\n` +
      (credentials ? `Demo tenant: API keys and a user in ${credentials}\n\n` : '\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`fleet failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
