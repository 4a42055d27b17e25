import '@fleet/platform-tracing'; // first: patches http, pg and kafkajs before they load (when tracing is on)
import 'reflect-metadata';
import { openApiDocument } from '@fleet/contracts';
import { DeviceListener, Gt06Port, TeltonikaPort } from '@fleet/telemetry-ingest-service';
import {
  createServiceApp,
  HealthRegistry,
  installJsonLogging,
  loadConfigOrExit,
  onShutdownSignal,
  startServiceApp,
} from '@fleet/platform';
import { DemoFleet, startDemoFleet } from './demo-fleet';
import { demoAlertServices } from './demo-alert-services';
import { ensureDemoTenant } from './demo-tenant';
import { EmbeddedDatabase, startEmbeddedDatabase } from './embedded-database';
import { fleetModules } from './fleet-modules';
import { readFleetConfig } from './fleet-config';

/** Every service module in one process: the platform as a newcomer first meets it. */
async function main(): Promise<void> {
  const config = loadConfigOrExit('fleet', readFleetConfig);
  installJsonLogging(config.service, config.log.level);
  let database: EmbeddedDatabase | undefined;
  let demoFleet: DemoFleet | undefined;
  let stopApp = async () => undefined as void;
  onShutdownSignal(async () => {
    await demoFleet?.stop();
    await stopApp();
    await database?.stop();
  });

  if (config.embeddedDatabase) {
    database = await startEmbeddedDatabase(config.embeddedDatabase.dataDir, config.embeddedDatabase.port);
  }
  const effective = database ? { ...config, database: { ...config.database, url: database.url } } : config;

  const app = await createServiceApp(effective, fleetModules(config), { openApiDocument, console: true });
  stopApp = () => {
    // As the distributed services do: readiness says 503 from the signal on.
    app.get(HealthRegistry).beginShutdown();
    return app.close();
  };
  const host = config.http.host === '0.0.0.0' ? 'localhost' : config.http.host;
  const baseUrl = `http://${host}:${config.http.port}`;
  // The demo tenant exists before the app reports ready: a newcomer's first request finds it.
  await app.init();
  const osmand = `http://${host}:${app.get(DeviceListener).port}`;
  const teltonika = { host, port: app.get(TeltonikaPort).port! };
  const gt06 = { host, port: app.get(Gt06Port).port! };
  const demo = config.seedDemoTenant
    ? await ensureDemoTenant(
        app,
        config.dataDir,
        { baseUrl, osmand, teltonika, gt06 },
        demoAlertServices(app),
      )
    : undefined;
  await startServiceApp(app, effective);
  if (demo && config.demoFleet.enabled) {
    demoFleet = await startDemoFleet(demo.file, {
      intervalSeconds: config.demoFleet.intervalSeconds,
      // History only on the first start: a restart would weave a second past into the stored one.
      historySeconds: demo.created ? config.demoFleet.historySeconds : 0,
    });
  }
  process.stdout.write(
    `\nFleet Telemetry is running at ${baseUrl}  (readiness: /health/ready, Ctrl-C stops it)\n` +
      `Console: ${baseUrl}/console/  (sign in with an API key${demo ? ' from the demo file below' : ''})\n` +
      `Trackers: OsmAnd ${osmand}, Teltonika ${teltonika.host}:${teltonika.port} (TCP and UDP), GT06 ${gt06.host}:${gt06.port}\n` +
      (demo ? `Demo tenant: API keys and a user in ${demo.file}\n` : '') +
      (demoFleet
        ? `Demo fleet: simulated vehicles report every ${config.demoFleet.intervalSeconds} s (FLEET_SIMULATOR=false turns them off)\n`
        : '') +
      '\n',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`fleet failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
