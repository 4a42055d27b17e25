import { EnvReader } from '@fleet/platform';
import { TestFixtures, waitFor } from '@fleet/testing';
import { AlertEngineModule } from '../alert-engine.module';
import { readAlertEngineConfig } from '../alert-engine.config';

/** alert-engine's modules for a test context, configured from the context's environment. */
export const alertEngineModules = (env: EnvReader) => [AlertEngineModule.forRoot(readAlertEngineConfig(env))];

/** alert-engine's part of a test context: waiting until its projection knows a vehicle and its companies. */
export const alertEngineFixtures: TestFixtures = {
  async vehicleReady(context, vehicle) {
    await waitFor(
      async () =>
        (
          await context.database.pool.query(
            'SELECT 1 FROM alerts.vehicles WHERE vehicle_id = $1 AND company_ids @> $2::int[] AND company_ids <@ $2::int[]',
            [vehicle.id, vehicle.companyIds],
          )
        ).rowCount === 1,
      { description: `vehicle ${vehicle.id} known to alert-engine` },
    );
  },
};
