import { ServiceSchema } from '@fleet/platform';

/** Tables owned by command-gateway. Its entities and migrations are added here as its routes arrive. */
export const commandsSchema: ServiceSchema = {
  schema: 'commands',
  entities: [],
  migrations: [],
};
