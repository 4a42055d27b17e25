import 'reflect-metadata';
import { ServiceNames } from '@fleet/contracts';
import { readServiceConfig, runService } from '@fleet/platform';
import { readTelemetryIngestConfig, TelemetryIngestModule } from '@fleet/telemetry-ingest-service';

const service = ServiceNames.telemetryIngest;

void runService(
  service,
  // The API port serves health and the batch endpoint; trackers talk to the OsmAnd port (5055).
  (env) => ({
    ...readServiceConfig(service, env, { httpPort: 3002 }),
    ingest: readTelemetryIngestConfig(env),
  }),
  (config) => [TelemetryIngestModule.forRoot(config.ingest)],
);
