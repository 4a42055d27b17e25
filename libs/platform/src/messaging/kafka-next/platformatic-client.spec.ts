import { Partitioners, PartitionMetadata } from 'kafkajs';
import { platformaticKafka } from './platformatic-kafka';

/** A key goes to partition murmur2(key) mod n, with the hash's sign bit masked as the Java client does. */
describe('@platformatic/kafka partitioner', () => {
  const partitions = 12;
  const kafkajs = Partitioners.DefaultPartitioner();
  const partitionMetadata = Array.from({ length: partitions }, (_, partitionId): PartitionMetadata => ({
    partitionId,
    leader: 1,
    partitionErrorCode: 0,
    replicas: [1],
    isr: [1],
  }));
  const keys = Array.from({ length: 2_000 }, (_, i) => String(i + 1));
  const kafkajsPartition = (key: string) =>
    kafkajs({ topic: 't', partitionMetadata, message: { key, value: null } });

  it('puts every key on the partition kafkajs chooses, with the compatibility partitioner the transport uses', () => {
    const { compatibilityPartitioner } = platformaticKafka();
    const platformatic = (key: string) =>
      compatibilityPartitioner({ topic: 't', key }, Buffer.from(key)) % partitions;
    expect(keys.filter((key) => platformatic(key) !== kafkajsPartition(key))).toEqual([]);
  });

  it('would put some keys elsewhere with its default partitioner (the control case)', () => {
    const { defaultPartitioner } = platformaticKafka();
    const platformatic = (key: string) =>
      defaultPartitioner({ topic: 't', key }, Buffer.from(key)) % partitions;
    expect(keys.filter((key) => platformatic(key) !== kafkajsPartition(key)).length).toBeGreaterThan(0);
  });
});
