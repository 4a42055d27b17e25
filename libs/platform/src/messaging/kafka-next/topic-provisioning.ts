import { TopicConfig } from '../kafka-common/topic-configs';
import { Admin, platformaticKafka } from './platformatic-kafka';

/**
 * Creates the catalog's topics that do not exist yet, as kafka/topic-provisioning.ts does with
 * kafkajs. This client applies a call's partition count, replication and configuration to every
 * topic of the call: one call per topic.
 */
export async function provisionTopics(
  admin: Admin,
  configs: TopicConfig[],
  timeoutMs = 30_000,
): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing = configs.filter((config) => !existing.has(config.topic));
  for (const config of missing) {
    try {
      await admin.createTopics({
        topics: [config.topic],
        partitions: config.numPartitions,
        replicas: config.replicationFactor,
        configs: config.configEntries,
      });
    } catch (error) {
      // Another service may have created it in between; anything else is real.
      if (!platformaticKafka().findErrorBy(error as Error, 'apiId', 'TOPIC_ALREADY_EXISTS')) throw error;
    }
  }
  const created = missing.map((config) => config.topic);
  if (created.length > 0) await waitUntilServed(admin, created, timeoutMs);
  return created;
}

/**
 * A new topic's leaders can be elected before every broker serves its metadata; a consumer that
 * subscribes in between fails with UNKNOWN_TOPIC_OR_PARTITION. Wait until the metadata is served.
 */
async function waitUntilServed(admin: Admin, topics: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const { topics: metadata } = await admin.metadata({ topics, forceUpdate: true });
      if (
        topics.every((topic) => {
          const partitions = metadata.get(topic)?.partitions ?? [];
          return partitions.length > 0 && partitions.every((partition) => partition.leader >= 0);
        })
      )
        return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline)
      throw new Error(`topics not served after ${timeoutMs} ms: ${topics.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
