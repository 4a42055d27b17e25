import { allTopics } from '@fleet/contracts';
import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { KafkaConfig } from '../../config/service-config';
import { HealthRegistry } from '../../health/health.registry';
import { FleetMetrics } from '../../metrics/fleet-metrics';
import { topicConfigs } from '../kafka-common/topic-configs';
import { baseOptions, createPlatformaticProducer, PlatformaticProducer } from './platformatic-client';
import { PlatformaticEventPublisher } from './platformatic-event-publisher';
import { PlatformaticEventServer } from './platformatic-event-server';
import { Admin, platformaticKafka } from './platformatic-kafka';
import { provisionTopics } from './topic-provisioning';

/**
 * The @platformatic/kafka producer and admin of one process (KAFKA_CLIENT=platformatic), as
 * KafkaConnections is for kafkajs: topics provisioned at start, closed at shutdown, and the same
 * `kafka` health check (the broker answers; every consumer group has joined).
 */
export class PlatformaticConnections implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Kafka');
  readonly producer: PlatformaticProducer;
  private readonly admin: Admin;
  private server?: PlatformaticEventServer;

  constructor(
    private readonly config: KafkaConfig,
    health: HealthRegistry,
    private readonly metrics: FleetMetrics,
  ) {
    this.producer = createPlatformaticProducer(config);
    this.admin = new (platformaticKafka().Admin)(baseOptions(config));
    health.register({
      name: 'kafka',
      check: async () => {
        await this.admin.metadata({ topics: [], forceUpdate: true });
        const consumers = this.server?.consumersHealthy();
        if (consumers && !consumers.healthy) throw new Error(consumers.detail);
      },
    });
  }

  async onModuleInit(): Promise<void> {
    if (!this.config.provisionTopics) return;
    const created = await provisionTopics(
      this.admin,
      topicConfigs(allTopics, {
        namespace: this.config.namespace,
        replicationFactor: this.config.replicationFactor,
      }),
    );
    if (created.length > 0)
      this.logger.log({ msg: 'topics created', topics: created, client: 'platformatic' });
  }

  createPublisher(): PlatformaticEventPublisher {
    return new PlatformaticEventPublisher(this.producer, this.config.namespace);
  }

  createServer(): PlatformaticEventServer {
    this.server = new PlatformaticEventServer(this.config, this.producer, {
      namespace: this.config.namespace,
      sessionTimeoutMs: this.config.sessionTimeoutMs,
      metrics: this.metrics,
    });
    return this.server;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.producer.close();
    await this.admin.close();
  }
}
