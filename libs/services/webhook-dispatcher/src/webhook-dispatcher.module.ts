import { DatabaseModule } from '@fleet/platform';
import { DynamicModule, Module, Provider, Type } from '@nestjs/common';
import {
  ConfigurationProjection,
  ConfigurationSnapshotsConsumer,
} from './configurations/configuration-projection';
import { ConfigurationQueries } from './configurations/configurations.queries';
import { DeliveryLogController } from './delivery/delivery-log.controller';
import { DeliveryLogService } from './delivery/delivery-log.service';
import { DeliveryPlanner } from './delivery/delivery-planner';
import { DeliveryWorker } from './delivery/delivery-worker';
import { DeliveryQueries } from './delivery/delivery.queries';
import { FiredAlertsConsumer } from './delivery/fired-alerts.consumer';
import { DeliveryLogRetention } from './delivery/log-retention';
import { WEBHOOK_DISPATCHER_CONFIG, WebhookDispatcherConfig } from './webhook-dispatcher.config';
import { webhooksSchema } from './webhook-dispatcher.schema';
import { secretBoxProvider } from './webhooks/secret-box';
import { WebhooksController } from './webhooks/webhooks.controller';
import { WebhookQueries } from './webhooks/webhooks.queries';
import { WebhooksService } from './webhooks/webhooks.service';

/** The management routes of webhooks (docs/webhooks.md, Managing webhooks). */
const managementControllers: Type[] = [WebhooksController];
const managementProviders: Provider[] = [secretBoxProvider, WebhookQueries, WebhooksService];

/** Fired alerts turned into deliveries, and deliveries attempted (docs/webhooks.md, How delivery works, The delivery log). */
const deliveryControllers: Type[] = [FiredAlertsConsumer, DeliveryLogController];
const deliveryProviders: Provider[] = [
  DeliveryQueries,
  DeliveryPlanner,
  DeliveryWorker,
  DeliveryLogService,
  DeliveryLogRetention,
];

/**
 * Signed webhook deliveries of fired alerts to customer URLs. One folder per feature: `webhooks/`
 * (management routes, secrets), `configurations/` (the projection of alert configurations links are
 * checked against), `delivery/` (fired alerts to deliveries, the schedule, the delivery log),
 * `sending/` (one HTTP attempt: address checks, pinned connections, redirects, timeouts).
 */
@Module({})
export class WebhookDispatcherModule {
  static forRoot(config: WebhookDispatcherConfig): DynamicModule {
    return {
      module: WebhookDispatcherModule,
      imports: [DatabaseModule.forService(webhooksSchema)],
      controllers: [ConfigurationSnapshotsConsumer, ...managementControllers, ...deliveryControllers],
      providers: [
        { provide: WEBHOOK_DISPATCHER_CONFIG, useValue: config },
        ConfigurationQueries,
        ConfigurationProjection,
        ...managementProviders,
        ...deliveryProviders,
      ],
    };
  }
}
