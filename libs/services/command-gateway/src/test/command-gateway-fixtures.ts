import { EnvReader } from '@fleet/platform';
import { TestFixtures, waitFor } from '@fleet/testing';
import { readCommandGatewayConfig } from '../command-gateway.config';
import { CommandGatewayModule } from '../command-gateway.module';

/** command-gateway's modules for a test context, configured from the context's environment. */
export const commandGatewayModules = (env: EnvReader) => [
  CommandGatewayModule.forRoot(readCommandGatewayConfig(env)),
];

/** command-gateway's part of a test context: waiting until its projection knows a vehicle and its companies. */
export const commandGatewayFixtures: TestFixtures = {
  async vehicleReady(context, vehicle) {
    await waitFor(
      async () =>
        (
          await context.database.pool.query(
            'SELECT 1 FROM commands.vehicles WHERE vehicle_id = $1 AND company_ids @> $2::int[] AND company_ids <@ $2::int[]',
            [vehicle.id, vehicle.companyIds],
          )
        ).rowCount === 1,
      { description: `vehicle ${vehicle.id} known to command-gateway` },
    );
  },
};
