/**
 * What the phases of bench/alerts share: the flags, the vehicles' fix clock, position events published
 * as telemetry-ingest publishes them, the consumer groups' progress, and the rules the bench defines.
 */
import { alertsSchema, bumpRuleVersion } from '@fleet/alert-engine-service';
import { PositionReportedV1 } from '@fleet/contracts';
import { Admin, CompressionTypes, Producer } from 'kafkajs';
import { benchDataSource, numberFlag } from '../common/infra';
import { insertConfigurations, insertGeofences } from './alerts.queries';
import { COMPANIES, configurationsOf, geofencesOf, positionOf, VEHICLES } from './fleet-model';

export const BACKLOG = numberFlag('positions', 300_000);
export const RATE = numberFlag('rate', 2_000);
export const SECONDS = numberFlag('seconds', 30);
export const WARMUP_SECONDS = numberFlag('warmup', 10);
export const BATCH = 100;
export const TARGET = { positionsPerSecond: 10_000, p99DelayMs: 500 };

/** Each vehicle's fixes one second apart, from six hours ago. */
const clock = new Array<number>(VEHICLES + 1).fill(Date.now() - 6 * 3_600_000);
const fixes = new Array<number>(VEHICLES + 1).fill(0);
export function nextFix(vehicleId: number): PositionReportedV1 {
  clock[vehicleId] += 1_000;
  return positionOf(vehicleId, fixes[vehicleId]++, clock[vehicleId]);
}

/** Publishes position events as telemetry-ingest does (keyed by vehicle), in sends of 1,000. */
export async function publishPositions(producer: Producer, topic: string, count: number): Promise<void> {
  let vehicle = 0;
  const sends: Promise<unknown>[] = [];
  for (let sent = 0; sent < count; sent += 1_000) {
    const messages = Array.from({ length: Math.min(1_000, count - sent) }, () => {
      vehicle = (vehicle % VEHICLES) + 1;
      return { key: String(vehicle), value: JSON.stringify(nextFix(vehicle)) };
    });
    sends.push(producer.send({ topic, messages, acks: -1, compression: CompressionTypes.None }));
    if (sends.length >= 8) await sends.shift();
  }
  await Promise.all(sends);
}

/** The sum of a group's committed offsets on a topic (what it has consumed). */
export async function committed(admin: Admin, groupId: string, topic: string): Promise<number> {
  const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return offsets.partitions.reduce((sum, partition) => sum + Math.max(0, Number(partition.offset)), 0);
}

export async function endOffsets(admin: Admin, topic: string): Promise<number> {
  return (await admin.fetchTopicOffsets(topic)).reduce((sum, partition) => sum + Number(partition.offset), 0);
}

/** Geofences, then configurations, of every company, each company's with its rule version bump. */
export async function defineRules(
  databaseUrl: string,
): Promise<{ geofences: number; configurations: number }> {
  const dataSource = await benchDataSource(alertsSchema, databaseUrl, 2);
  let geofences = 0;
  let configurations = 0;
  try {
    for (const companyId of COMPANIES) {
      await dataSource.transaction(async (manager) => {
        const shapes = geofencesOf(companyId);
        const ids = await insertGeofences(manager, companyId, shapes);
        const defined = configurationsOf(companyId, ids);
        await insertConfigurations(manager, companyId, defined);
        await bumpRuleVersion(manager, companyId);
        geofences += ids.length;
        configurations += defined.length;
      });
    }
  } finally {
    await dataSource.destroy();
  }
  return { geofences, configurations };
}
