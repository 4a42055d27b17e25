import { Outbox } from '@fleet/platform';
import { DataSource } from 'typeorm';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { VehicleRegistry } from '../vehicles/vehicle-registry.service';

/** query-api's operations for operators, on a DataSource of the query schema. */
export function createRegistryAdmin(dataSource: DataSource) {
  return { vehicles: new VehicleRegistry(dataSource, Outbox.writeOnly(dataSource, QUERY_SCHEMA)) };
}
