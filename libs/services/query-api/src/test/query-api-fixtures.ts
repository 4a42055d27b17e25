import { EnvReader } from '@fleet/platform';
import { TestFixtures } from '@fleet/testing';
import { QueryApiModule } from '../query-api.module';
import { readQueryApiConfig } from '../query-api.config';
import { VehicleRegistry } from '../vehicles/vehicle-registry.service';

/** query-api's part of a test context: the module, and vehicles registered by its registry. */
export const queryApiFixtures: TestFixtures = {
  newVehicle: (app, input) => app.get(VehicleRegistry).register(input),
};

export const queryApiModules = (env: EnvReader) => [QueryApiModule.forRoot(readQueryApiConfig(env))];
