/**
 * What bench/capacity reads of the running stack between and after its steps: consumer lag per group
 * (from the broker) and bytes Kafka appended; what it reads of PostgreSQL is in gauges.queries.ts.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Admin, Kafka, logLevel } from 'kafkajs';

/** Messages each live consumer group has yet to commit, summed over its topics' partitions. */
export async function consumerLags(admin: Admin): Promise<Record<string, number>> {
  // Groups with members only: a process's own group (company-directory.<id>) outlives it, empty.
  const listed = (await admin.listGroups()).groups.map((group) => group.groupId);
  const groups = (await admin.describeGroups(listed)).groups.filter(
    (group) => group.state !== 'Empty' && group.state !== 'Dead',
  );
  const lags: Record<string, number> = {};
  const ends = new Map<string, Map<number, number>>();
  const endOf = async (topic: string) => {
    let partitions = ends.get(topic);
    if (!partitions) {
      partitions = new Map(
        (await admin.fetchTopicOffsets(topic)).map((entry) => [entry.partition, Number(entry.high)]),
      );
      ends.set(topic, partitions);
    }
    return partitions;
  };
  for (const { groupId } of groups) {
    let lag = 0;
    for (const { topic, partitions } of await admin.fetchOffsets({ groupId })) {
      const end = await endOf(topic);
      for (const { partition, offset } of partitions) {
        const committed = Number(offset);
        // -1: nothing committed yet, so the whole partition is behind.
        lag += Math.max(0, (end.get(partition) ?? 0) - Math.max(0, committed));
      }
    }
    lags[groupId] = lag;
  }
  return lags;
}

export function kafkaAdmin(brokers: string): Admin {
  return new Kafka({
    clientId: 'bench-capacity',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  }).admin();
}

/**
 * Bytes of the broker's log segments (`*.log` files under its storage directory), or only of the
 * partitions of topics whose name contains `topic`.
 */
export function kafkaLogBytes(storageDir: string, topic?: string): number {
  let total = 0;
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry);
      try {
        const stat = statSync(path);
        if (stat.isDirectory()) walk(path);
        else if (entry.endsWith('.log') && (!topic || dir.includes(topic))) total += stat.size;
      } catch {
        // A segment deleted while walking.
      }
    }
  };
  walk(storageDir);
  return total;
}
