import { ServiceSchema } from '@fleet/platform';

/** Tables owned by auth. Its entities and migrations are added here as its routes arrive. */
export const authSchema: ServiceSchema = {
  schema: 'auth',
  entities: [],
  migrations: [],
};
