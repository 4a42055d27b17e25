import { DatabaseModule } from '@fleet/platform';
import { Module } from '@nestjs/common';
import { webhooksSchema } from './webhook-dispatcher.schema';

/** Signed webhook deliveries of fired alerts to customer URLs. */
@Module({
  imports: [DatabaseModule.forService(webhooksSchema)],
})
export class WebhookDispatcherModule {}
