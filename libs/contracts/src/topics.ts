import { PositionReportedV1 } from './events/position-reported.v1';
import { VehicleSnapshotV1 } from './events/vehicle-snapshot.v1';
import { defineTopic, TopicSpec } from './messaging/topic';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Every topic of the platform. Brokers never auto-create topics: provisioning reads this catalog. */
export const Topics = {
  positions: defineTopic({
    name: 'telemetry.positions.v1',
    payload: PositionReportedV1,
    partitions: 12,
    cleanupPolicy: 'delete',
    retentionMs: 7 * DAY_MS,
    keyDescription: 'vehicle id',
  }),
  vehicleSnapshots: defineTopic({
    name: 'registry.vehicle-snapshots.v1',
    payload: VehicleSnapshotV1,
    partitions: 6,
    cleanupPolicy: 'compact',
    keyDescription: 'vehicle id',
  }),
} as const;

export const allTopics: readonly TopicSpec<object>[] = Object.values(Topics);
