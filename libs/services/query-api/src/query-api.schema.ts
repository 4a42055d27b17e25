import { ServiceSchema } from '@fleet/platform';
import { CreatePositions1763800000000 } from './migrations/1763800000000-create-positions';
import { Position } from './positions/position.entity';

export const QUERY_SCHEMA = 'query';

/** Tables owned by query-api. */
export const querySchema: ServiceSchema = {
  schema: QUERY_SCHEMA,
  entities: [Position],
  migrations: [CreatePositions1763800000000],
};
