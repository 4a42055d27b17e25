import { ServiceSchema } from '@fleet/platform';
import { WEBHOOKS_SCHEMA } from './webhook-dispatcher.schema.constants';
import { ProjectedConfiguration } from './configurations/projected-configuration.entity';
import { Delivery, DeliveryAttempt } from './delivery/delivery.entity';
import { CreateWebhooks1764600000000 } from './migrations/1764600000000-create-webhooks';
import { DeliveryTraceparent1765100000000 } from './migrations/1765100000000-delivery-traceparent';
import { AttemptSchedule1766000000000 } from './migrations/1766000000000-attempt-schedule';
import { Webhook, WebhookAlertLink } from './webhooks/webhook.entity';

export { WEBHOOKS_SCHEMA } from './webhook-dispatcher.schema.constants';

/**
 * Tables owned by webhook-dispatcher: webhooks and their linked configurations, its projection of
 * alert configurations, and deliveries with their attempts.
 */
export const webhooksSchema: ServiceSchema = {
  schema: WEBHOOKS_SCHEMA,
  entities: [Webhook, WebhookAlertLink, ProjectedConfiguration, Delivery, DeliveryAttempt],
  migrations: [CreateWebhooks1764600000000, DeliveryTraceparent1765100000000, AttemptSchedule1766000000000],
};
