import { AlertConfigurationSnapshotV1 } from './events/alert-configuration-snapshot.v1';
import { ApiKeyRevokedV1 } from './events/api-key-revoked.v1';
import { AlertFiredV1 } from './events/alert-fired.v1';
import { CommandRequestedV1 } from './events/command-requested.v1';
import { CommandResultV1 } from './events/command-result.v1';
import { CommandStatusChangedV1 } from './events/command-status-changed.v1';
import { CompanySnapshotV1 } from './events/company-snapshot.v1';
import { checkPositionReported } from './events/position-reported.check';
import { PositionReportedV1 } from './events/position-reported.v1';
import { VehicleSnapshotV1 } from './events/vehicle-snapshot.v1';
import { defineTopic, TopicSpec } from './messaging/topic';
import { DAY_MS } from './time';

/** Every topic of the platform. Brokers never auto-create topics: provisioning reads this catalog. */
export const Topics = {
  positions: defineTopic({
    name: 'telemetry.positions.v1',
    payload: PositionReportedV1,
    partitions: 12,
    cleanupPolicy: 'delete',
    retentionMs: 7 * DAY_MS,
    keyDescription: 'vehicle id',
    check: checkPositionReported,
    // A tracker packet's records (up to 255) and a batch request's positions of one vehicle.
    groupsEventsOfAKey: true,
  }),
  companySnapshots: defineTopic({
    name: 'auth.company-snapshots.v1',
    payload: CompanySnapshotV1,
    partitions: 3,
    cleanupPolicy: 'compact',
    keyDescription: 'company id',
  }),
  apiKeyRevocations: defineTopic({
    name: 'auth.api-key-revocations.v1',
    payload: ApiKeyRevokedV1,
    partitions: 3,
    cleanupPolicy: 'compact',
    keyDescription: 'API key id',
  }),
  vehicleSnapshots: defineTopic({
    name: 'registry.vehicle-snapshots.v1',
    payload: VehicleSnapshotV1,
    partitions: 6,
    cleanupPolicy: 'compact',
    keyDescription: 'vehicle id',
  }),
  alertsFired: defineTopic({
    name: 'alerts.fired.v1',
    payload: AlertFiredV1,
    partitions: 6,
    cleanupPolicy: 'delete',
    retentionMs: 7 * DAY_MS,
    keyDescription: 'vehicle id',
  }),
  alertConfigurationSnapshots: defineTopic({
    name: 'alerts.configuration-snapshots.v1',
    payload: AlertConfigurationSnapshotV1,
    partitions: 3,
    cleanupPolicy: 'compact',
    keyDescription: 'alert configuration id',
  }),
  commandsRequested: defineTopic({
    name: 'commands.requested.v1',
    payload: CommandRequestedV1,
    partitions: 6,
    cleanupPolicy: 'delete',
    retentionMs: 7 * DAY_MS,
    keyDescription: 'vehicle id',
  }),
  commandResults: defineTopic({
    name: 'commands.results.v1',
    payload: CommandResultV1,
    partitions: 6,
    cleanupPolicy: 'delete',
    retentionMs: 7 * DAY_MS,
    keyDescription: 'vehicle id',
  }),
  commandStatusChanges: defineTopic({
    name: 'commands.status-changes.v1',
    payload: CommandStatusChangedV1,
    partitions: 6,
    cleanupPolicy: 'delete',
    retentionMs: 7 * DAY_MS,
    keyDescription: 'vehicle id',
  }),
} as const;

export const allTopics: readonly TopicSpec<object>[] = Object.values(Topics);

/** The catalog entry of a topic name, for code that stores topic names (the outbox). */
export function topicByName(name: string): TopicSpec<object> {
  const topic = allTopics.find((candidate) => candidate.name === name);
  if (!topic) throw new Error(`unknown topic ${name}: add it to the catalog in libs/contracts/src/topics.ts`);
  return topic;
}
