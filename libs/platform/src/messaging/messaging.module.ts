import { allTopics, deadLetterTopicName } from '@fleet/contracts';
import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  INestApplicationContext,
  Logger,
  Module,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { Admin, Kafka, Producer } from 'kafkajs';
import { DatabaseConfig, KafkaConfig, MessagingConfig } from '../config/service-config';
import { HealthRegistry } from '../health/health.registry';
import { FleetMetrics } from '../metrics/fleet-metrics';
import { EventServer } from './event-server';
import { InProcessBroker } from './in-process/in-process-broker';
import { InProcessEventPublisher } from './in-process/in-process-event-publisher';
import { InProcessEventServer } from './in-process/in-process-event-server';
import { PostgresBrokerStore } from './in-process/postgres-broker.store';
import { createKafkaClient } from './kafka/kafka-client';
import { KafkaEventPublisher } from './kafka/kafka-event-publisher';
import { KafkaEventServer } from './kafka/kafka-event-server';
import { topicConfigs } from './kafka-common/topic-configs';
import { provisionTopics } from './kafka/topic-provisioning';
import { PlatformaticConnections } from './kafka-next/platformatic-connections';
import { EventPublisher } from './message';

const MESSAGING_CONFIG = Symbol('MESSAGING_CONFIG');

/** The Kafka client, producer and admin of one process, connected at start and closed at shutdown. */
@Injectable()
export class KafkaConnections implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Kafka');
  readonly kafka: Kafka;
  readonly producer: Producer;
  private readonly admin: Admin;
  private server?: KafkaEventServer;

  constructor(
    @Inject(MESSAGING_CONFIG) private readonly config: KafkaConfig,
    health: HealthRegistry,
    private readonly metrics: FleetMetrics,
  ) {
    this.kafka = createKafkaClient(config);
    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 5,
      allowAutoTopicCreation: false,
    });
    this.admin = this.kafka.admin();
    health.register({
      name: 'kafka',
      check: async () => {
        await this.admin.describeCluster();
        const consumers = this.server?.consumersHealthy();
        if (consumers && !consumers.healthy) throw new Error(consumers.detail);
      },
    });
  }

  async onModuleInit(): Promise<void> {
    await this.admin.connect();
    await this.producer.connect();
    if (this.config.provisionTopics) {
      const created = await provisionTopics(
        this.admin,
        topicConfigs(allTopics, {
          namespace: this.config.namespace,
          replicationFactor: this.config.replicationFactor,
        }),
      );
      if (created.length > 0) this.logger.log({ msg: 'topics created', topics: created });
    }
  }

  createPublisher(): KafkaEventPublisher {
    return new KafkaEventPublisher(this.producer, this.config.namespace);
  }

  createServer(): KafkaEventServer {
    this.server = new KafkaEventServer(this.kafka, this.producer, {
      namespace: this.config.namespace,
      sessionTimeoutMs: this.config.sessionTimeoutMs,
      metrics: this.metrics,
    });
    return this.server;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.producer.disconnect();
    await this.admin.disconnect();
  }
}

/**
 * Opens the in-process broker on the service's database (its log and group positions in the
 * `in_process_broker` schema, so that what was acknowledged survives the process), and makes the
 * catalog's topics exist on it, as provisioning does on Kafka.
 */
async function openInProcessBroker(database: DatabaseConfig): Promise<InProcessBroker> {
  const logger = new Logger('InProcessBroker');
  const store = await PostgresBrokerStore.connect(database.url, { applicationName: 'in-process-broker' });
  const broker = await InProcessBroker.open(store, {
    onError: (error, context) =>
      logger.error({
        msg: context.during === 'delivery' ? 'delivery failed; will redeliver' : `${context.during} failed`,
        ...context,
        err: error,
      }),
  });
  for (const topic of allTopics) {
    broker.createTopic(topic.name, topic.partitions, topic.cleanupPolicy === 'compact');
    broker.createTopic(deadLetterTopicName(topic.name), 1);
  }
  return broker;
}

/**
 * Closes the broker when the app shuts down. The messaging module is global, so Nest calls this after
 * the services' own shutdown hooks (an outbox relay may still publish in them).
 */
@Injectable()
export class InProcessBrokerLifecycle implements OnApplicationShutdown {
  constructor(private readonly broker: InProcessBroker) {}

  async onApplicationShutdown(): Promise<void> {
    await this.broker.close();
  }
}

/**
 * Gives services an {@link EventPublisher} and runs their `@ConsumeEvents` handlers, on Kafka or on the
 * in-process broker. Services never see which: they import this module through the platform bootstrap.
 */
@Global()
@Module({})
export class MessagingModule {
  static forRoot(config: MessagingConfig, database: DatabaseConfig): DynamicModule {
    if (config.transport === 'kafka') {
      // KAFKA_CLIENT picks the library; the rest of the app sees the same publisher and server.
      const connections =
        config.kafka.client === 'platformatic'
          ? {
              provide: PlatformaticConnections,
              inject: [HealthRegistry, FleetMetrics],
              useFactory: (health: HealthRegistry, metrics: FleetMetrics) =>
                new PlatformaticConnections(config.kafka, health, metrics),
            }
          : KafkaConnections;
      const connectionsToken =
        config.kafka.client === 'platformatic' ? PlatformaticConnections : KafkaConnections;
      return {
        module: MessagingModule,
        providers: [
          { provide: MESSAGING_CONFIG, useValue: config.kafka },
          connections,
          {
            provide: EventPublisher,
            inject: [connectionsToken],
            useFactory: (kafka: KafkaConnections | PlatformaticConnections) => kafka.createPublisher(),
          },
        ],
        exports: [EventPublisher],
      };
    }
    return {
      module: MessagingModule,
      providers: [
        { provide: InProcessBroker, useFactory: () => openInProcessBroker(database) },
        InProcessBrokerLifecycle,
        {
          provide: EventPublisher,
          inject: [InProcessBroker, HealthRegistry, FleetMetrics],
          useFactory: (broker: InProcessBroker, health: HealthRegistry, metrics: FleetMetrics) => {
            health.register({ name: 'in-process-broker', check: () => broker.checkHealth() });
            metrics.addLagSource(() => broker.consumerLag());
            return new InProcessEventPublisher(broker);
          },
        },
      ],
      exports: [EventPublisher, InProcessBroker],
    };
  }
}

/** The Nest microservice strategy that runs the handlers, for `app.connectMicroservice`. */
export function createEventServer(app: INestApplicationContext, config: MessagingConfig): EventServer {
  if (config.transport === 'kafka') {
    return config.kafka.client === 'platformatic'
      ? app.get(PlatformaticConnections).createServer()
      : app.get(KafkaConnections).createServer();
  }
  return new InProcessEventServer(app.get(InProcessBroker), undefined, app.get(FleetMetrics));
}
