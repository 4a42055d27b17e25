import { Logger } from '@nestjs/common';
import { Kafka, logLevel, LogEntry } from 'kafkajs';
import { KafkaConfig } from '../../config/service-config';

const levelName: Record<logLevel, 'error' | 'warn' | 'log' | 'debug'> = {
  [logLevel.NOTHING]: 'debug',
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'log',
  [logLevel.DEBUG]: 'debug',
};

/** A kafkajs client whose own logs go through the service's JSON logger. */
export function createKafkaClient(config: KafkaConfig): Kafka {
  const logger = new Logger('kafkajs');
  return new Kafka({
    clientId: config.clientId,
    brokers: config.brokers,
    connectionTimeout: 3_000,
    requestTimeout: 30_000,
    retry: { initialRetryTime: 100, retries: 10 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }: LogEntry) => {
        const { message, ...rest } = log;
        logger[levelName[level]]({ msg: message, ...rest });
      },
  });
}
