import { EnvReader } from '@fleet/platform';
import { WebhookDispatcherModule } from '../webhook-dispatcher.module';
import { readWebhookDispatcherConfig } from '../webhook-dispatcher.config';

/** A key for test contexts only (tests never need to decrypt with production's key). */
export const TEST_WEBHOOK_SECRET_KEY = '5f0c6d3a9e2b47c1a8d4f6e0b3c5a7d9e1f2a4b6c8d0e2f4a6b8c0d2e4f6a8b0';

/**
 * webhook-dispatcher's modules for a test context, configured from the context's environment; the
 * secret key defaults to a test key. Tests that deliver to local receivers set
 * WEBHOOK_ALLOW_PRIVATE_CIDRS themselves.
 */
export const webhookDispatcherModules = (env: EnvReader) => [
  WebhookDispatcherModule.forRoot(readWebhookDispatcherConfig(env, { secretKey: TEST_WEBHOOK_SECRET_KEY })),
];
