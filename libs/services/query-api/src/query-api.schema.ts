import { ServiceSchema } from '@fleet/platform';
import { CreatePositions1763800000000 } from './migrations/1763800000000-create-positions';
import { CreateVehicleRegistry1763900000000 } from './migrations/1763900000000-create-vehicle-registry';
import { Position } from './positions/position.entity';
import { QUERY_SCHEMA } from './query-api.schema.constants';
import { Vehicle, VehicleCompany } from './vehicles/vehicle.entity';

export { QUERY_SCHEMA };

/** Tables owned by query-api: the vehicle registry, position history, and the outbox of vehicle snapshots. */
export const querySchema: ServiceSchema = {
  schema: QUERY_SCHEMA,
  entities: [Position, Vehicle, VehicleCompany],
  migrations: [CreatePositions1763800000000, CreateVehicleRegistry1763900000000],
  outbox: true,
};
