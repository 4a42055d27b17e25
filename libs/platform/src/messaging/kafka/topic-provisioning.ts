import { Admin } from 'kafkajs';
import { TopicConfig } from '../kafka-common/topic-configs';

/**
 * Creates the catalog's topics that do not exist yet. Safe to run from several services at once;
 * existing topics are left as they are (partition counts are never changed behind a key's back).
 */
export async function provisionTopics(
  admin: Admin,
  configs: TopicConfig[],
  timeoutMs = 30_000,
): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing = configs.filter((config) => !existing.has(config.topic));
  if (missing.length === 0) return [];
  try {
    await admin.createTopics({ topics: missing, waitForLeaders: true, timeout: timeoutMs });
  } catch (error) {
    // Another service may have created some of them in between; anything else is real.
    const alreadyExists =
      (error as { type?: string }).type === 'TOPIC_ALREADY_EXISTS' ||
      ((error as { errors?: { type?: string }[] }).errors ?? []).every(
        (e) => e.type === 'TOPIC_ALREADY_EXISTS',
      );
    if (!alreadyExists) throw error;
  }
  const created = missing.map((config) => config.topic);
  await waitUntilServed(admin, created, timeoutMs);
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
      const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
      if (
        metadata.every((topic) => topic.partitions.length > 0 && topic.partitions.every((p) => p.leader >= 0))
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
