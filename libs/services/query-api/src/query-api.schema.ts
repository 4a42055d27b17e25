import { ServiceSchema } from '@fleet/platform';
import { CreatePositions1763800000000 } from './migrations/1763800000000-create-positions';
import { CreateVehicleRegistry1763900000000 } from './migrations/1763900000000-create-vehicle-registry';
import { PartitionPositionHistory1764000000000 } from './migrations/1764000000000-partition-position-history';
import { NearestIndex1764100000000 } from './migrations/1764100000000-nearest-index';
import { AnchoredNearestIndex1764200000000 } from './migrations/1764200000000-anchored-nearest-index';
import { ReportedMappings1764300000000 } from './migrations/1764300000000-reported-mappings';
import { VehicleTags1764500000000 } from './migrations/1764500000000-vehicle-tags';
import { VehicleCommands1764600000000 } from './migrations/1764600000000-vehicle-commands';
import { Insights1764900000000 } from './migrations/1764900000000-insights';
import { InsightIndexes1765000000000 } from './migrations/1765000000000-insight-indexes';
import { LiveChannels1765200000000 } from './migrations/1765200000000-live-channels';
import { RestingHours1765300000000 } from './migrations/1765300000000-resting-hours';
import { HistoryReadingsJson1765400000000 } from './migrations/1765400000000-history-readings-json';
import {
  DrivingEventRow,
  VehicleActivity,
  VehicleEngineCode,
  VehicleRestHour,
} from './insights/insight.entities';
import { AppliedCommand } from './commands/applied-command.entity';
import { LastPosition, Position } from './positions/position.entity';
import { QUERY_SCHEMA } from './query-api.schema.constants';
import { Trip } from './trips/trip.entity';
import { Vehicle, VehicleCompany } from './vehicles/vehicle.entity';

export { QUERY_SCHEMA };

/**
 * Tables owned by query-api: the vehicle registry, position history, the commands applied to the
 * registry, the insights' pre-aggregates (driving activity per quarter hour, resting voltages per hour, driving events, engine codes), and the outbox of vehicle snapshots and command results.
 */
export const querySchema: ServiceSchema = {
  schema: QUERY_SCHEMA,
  entities: [
    Position,
    LastPosition,
    Trip,
    Vehicle,
    VehicleCompany,
    AppliedCommand,
    VehicleActivity,
    VehicleRestHour,
    DrivingEventRow,
    VehicleEngineCode,
  ],
  migrations: [
    CreatePositions1763800000000,
    CreateVehicleRegistry1763900000000,
    PartitionPositionHistory1764000000000,
    NearestIndex1764100000000,
    AnchoredNearestIndex1764200000000,
    ReportedMappings1764300000000,
    VehicleTags1764500000000,
    VehicleCommands1764600000000,
    Insights1764900000000,
    InsightIndexes1765000000000,
    LiveChannels1765200000000,
    RestingHours1765300000000,
    HistoryReadingsJson1765400000000,
  ],
  outbox: true,
};
