import { ServiceSchema } from '@fleet/platform';

/** Tables owned by webhook-dispatcher. Its entities and migrations are added here as its routes arrive. */
export const webhooksSchema: ServiceSchema = {
  schema: 'webhooks',
  entities: [],
  migrations: [],
};
