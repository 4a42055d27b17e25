import { EnvReader } from '@fleet/platform';
import { TestFixtures, waitFor } from '@fleet/testing';
import { TelemetryIngestModule } from '../telemetry-ingest.module';
import { readTelemetryIngestConfig } from '../telemetry-ingest.config';

/** telemetry-ingest's part of a test context: the module, and waiting until it knows a vehicle's tracker. */
export const telemetryIngestFixtures: TestFixtures = {
  async vehicleReady(context, vehicle) {
    await waitFor(
      async () =>
        Number(
          (
            await context.database.pool.query(
              'SELECT count(*) AS n FROM ingest.device_sessions WHERE imei = $1',
              [vehicle.imei],
            )
          ).rows[0].n,
        ) === 1,
      { description: `tracker ${vehicle.imei} known to ingest` },
    );
  },
};

export const telemetryIngestModules = (env: EnvReader) => [
  TelemetryIngestModule.forRoot(readTelemetryIngestConfig(env)),
];
