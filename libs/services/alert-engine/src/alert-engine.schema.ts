import { ServiceSchema } from '@fleet/platform';
import { ALERTS_SCHEMA } from './alert-engine.schema.constants';
import { AlertConfiguration, RuleVersion } from './configurations/alert-configuration.entity';
import { VehicleState } from './engine/vehicle-state.entity';
import { Geofence } from './geofences/geofence.entity';
import { CreateAlerts1764400000000 } from './migrations/1764400000000-create-alerts';
import { ConfigurationSnapshots1764600000000 } from './migrations/1764600000000-configuration-snapshots';
import { AlertRecord } from './records/alert-record.entity';
import { AlertVehicle } from './vehicles/alert-vehicle.entity';

export { ALERTS_SCHEMA } from './alert-engine.schema.constants';

/**
 * Tables owned by alert-engine: geofences, alert configurations and their rule versions, its
 * projection of the vehicle registry, per-vehicle rule state, alert records, and the outbox of fired
 * alerts.
 */
export const alertsSchema: ServiceSchema = {
  schema: ALERTS_SCHEMA,
  entities: [Geofence, AlertConfiguration, RuleVersion, AlertVehicle, VehicleState, AlertRecord],
  migrations: [CreateAlerts1764400000000, ConfigurationSnapshots1764600000000],
  outbox: true,
};
