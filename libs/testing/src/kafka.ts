import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';

/** Set by the Jest global setup (or by the caller, to use an existing broker). */
export function testKafkaBrokers(): string[] {
  const brokers = process.env.KAFKA_BROKERS;
  if (!brokers)
    throw new Error('KAFKA_BROKERS is not set: run integration tests through jest.integration.config.ts');
  return brokers.split(',');
}

/** A topic and consumer-group prefix no other test shares (see KAFKA_NAMESPACE). */
export function uniqueNamespace(label: string): string {
  return `test-${label}-${randomBytes(4).toString('hex')}`;
}

export function createTestKafka(clientId: string): Kafka {
  return new Kafka({ clientId, brokers: testKafkaBrokers(), logLevel: logLevel.NOTHING });
}

/** A signing key for services under test (never used outside tests). */
export const testJwtSecret = 'test-only-signing-key-0123456789abcdef0123456789';
