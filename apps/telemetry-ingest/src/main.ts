import 'reflect-metadata';
import { ServiceNames } from '@fleet/contracts';
import { readServiceConfig, runService } from '@fleet/platform';
import { TelemetryIngestModule } from '@fleet/telemetry-ingest-service';

const service = ServiceNames.telemetryIngest;

void runService(
  service,
  (env) => readServiceConfig(service, env, { httpPort: 5055 }),
  () => [TelemetryIngestModule],
);
