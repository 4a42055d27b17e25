import { EventPublisher, Outbox } from '@fleet/platform';
import { DataSource } from 'typeorm';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { VehicleRegistry } from '../vehicles/vehicle-registry.service';

class NoPublisher extends EventPublisher {
  async publish(): Promise<void> {
    throw new Error('the admin CLI does not publish; the running query-api relays its outbox');
  }
}

/** query-api's operations for operators, on a DataSource of the query schema. */
export function createRegistryAdmin(dataSource: DataSource) {
  return { vehicles: new VehicleRegistry(dataSource, new Outbox(dataSource, QUERY_SCHEMA, new NoPublisher())) };
}
