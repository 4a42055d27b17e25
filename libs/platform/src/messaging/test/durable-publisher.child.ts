/**
 * The child process of the kill-and-restart contract test (transport.contract.int-spec.ts): publishes
 * through the durable in-process broker as fast as it can from several concurrent publishers, and
 * prints `acked <id> …` once each append resolved, until it is killed. With `--consume <group>` it
 * also consumes the topic in that group (committing, with a fast maintenance pass that deletes what
 * the group committed) and prints `handled <id> …` for each batch its handler took, and `deleted`
 * each time such a deletion was committed.
 *
 *   node -r ts-node/register durable-publisher.child.ts <database-url> [--consume <group>]
 *
 * Relative imports only: it runs without the workspace's path aliases.
 */
import { InProcessBroker } from '../in-process/in-process-broker';
import { PostgresBrokerStore } from '../in-process/postgres-broker.store';

/** The test reads these back from its own copy: importing this file would run it. */
const CHILD_TOPIC = { name: 'contract.kill.v1', partitions: 4 };
const CHILD_PUBLISHERS = 8;

async function main(): Promise<void> {
  const [databaseUrl, flag, group] = process.argv.slice(2);
  const store = await PostgresBrokerStore.connect(databaseUrl, { applicationName: 'kill-test-child' });
  const write = (line: string) => process.stdout.write(`${line}\n`);
  // Tells the test that consumed messages were deleted (committed) before it kills this process.
  const deleteBefore = store.deleteBefore.bind(store);
  store.deleteBefore = async (cuts) => {
    await deleteBefore(cuts);
    write('deleted');
  };
  const broker = await InProcessBroker.open(store, {
    redeliveryDelayMs: 20,
    maintenanceIntervalMs: 10,
    positionCommitIntervalMs: 10,
  });
  broker.createTopic(CHILD_TOPIC.name, CHILD_TOPIC.partitions);
  if (flag === '--consume') {
    broker.subscribe(CHILD_TOPIC.name, group, async (batch) => {
      write(`handled ${batch.messages.map((message) => String(message.value)).join(' ')}`);
    });
  }
  write('ready');
  // Each publisher is one key: its ids must arrive in the order they were acknowledged.
  await Promise.all(
    Array.from({ length: CHILD_PUBLISHERS }, async (_, publisher) => {
      for (let seq = 0; ;) {
        const size = 1 + ((seq * 7 + publisher) % 25);
        const ids = Array.from({ length: size }, (__, i) => `${publisher}:${seq + i}`);
        await broker.append(
          CHILD_TOPIC.name,
          ids.map((id) => ({ key: `publisher-${publisher}`, value: id })),
        );
        write(`acked ${ids.join(' ')}`);
        seq += size;
      }
    }),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
