import { allTopics, deadLetterTopicName, TopicSpec } from '@fleet/contracts';
import { namespaced } from '../../config/service-config';

/** A topic as provisioning creates it (the shape kafkajs' admin takes; the other client is given the same). */
export interface TopicConfig {
  topic: string;
  numPartitions: number;
  replicationFactor: number;
  configEntries: { name: string; value: string }[];
}

const DEAD_LETTER_RETENTION_MS = 14 * 24 * 60 * 60 * 1000;
const DEAD_LETTER_PARTITIONS = 3;

/** The topic configurations the catalog implies: each topic and its dead-letter topic. */
export function topicConfigs(
  topics: readonly TopicSpec<object>[] = allTopics,
  options: { namespace?: string; replicationFactor?: number } = {},
): TopicConfig[] {
  const replicationFactor = options.replicationFactor ?? 1;
  return topics.flatMap((topic) => [
    {
      topic: namespaced(options, topic.name),
      numPartitions: topic.partitions,
      replicationFactor,
      configEntries: [
        { name: 'cleanup.policy', value: topic.cleanupPolicy },
        ...(topic.retentionMs !== undefined
          ? [{ name: 'retention.ms', value: String(topic.retentionMs) }]
          : []),
      ],
    },
    {
      topic: namespaced(options, deadLetterTopicName(topic.name)),
      numPartitions: DEAD_LETTER_PARTITIONS,
      replicationFactor,
      configEntries: [
        { name: 'cleanup.policy', value: 'delete' },
        { name: 'retention.ms', value: String(DEAD_LETTER_RETENTION_MS) },
      ],
    },
  ]);
}
