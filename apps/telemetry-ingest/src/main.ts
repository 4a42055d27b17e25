import '@fleet/platform-tracing'; // first: patches http, pg and kafkajs before they load (when tracing is on)
import 'reflect-metadata';
import { defaultHttpPorts, ServiceNames } from '@fleet/contracts';
import { readServiceConfig, runService } from '@fleet/platform';
import { readTelemetryIngestConfig, TelemetryIngestModule } from '@fleet/telemetry-ingest-service';

const service = ServiceNames.telemetryIngest;

void runService(
  service,
  // The API port serves health and the batch endpoint; trackers talk to the OsmAnd port (5055).
  (env) => ({
    ...readServiceConfig(service, env, { httpPort: defaultHttpPorts[service] }),
    ingest: readTelemetryIngestConfig(env),
  }),
  (config) => [TelemetryIngestModule.forRoot(config.ingest)],
);
