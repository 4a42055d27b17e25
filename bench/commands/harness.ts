/** What the phases of bench/commands share: the services the run stands on and the figures' summary. */
import { Kafka } from 'kafkajs';
import { percentile, round, ServiceProcess } from '../common/infra';
import { CommandBenchQueries } from './commands.queries';

export const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
};

export interface Services {
  env: Record<string, string>;
  jwtSecret: string;
  databaseUrl: string;
  queries: CommandBenchQueries;
  kafka: Kafka;
  kafkaPids: () => number[];
  namespace: string;
  gateway: ServiceProcess;
  all: ServiceProcess[];
}
