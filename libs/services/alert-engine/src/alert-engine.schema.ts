import { ServiceSchema } from '@fleet/platform';

/** Tables owned by alert-engine. Its entities and migrations are added here as its routes arrive. */
export const alertsSchema: ServiceSchema = {
  schema: 'alerts',
  entities: [],
  migrations: [],
};
