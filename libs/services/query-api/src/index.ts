export * from './query-api.module';
export * from './query-api.schema';
export * from './query-api.config';
export {
  VehicleRegistry,
  NewVehicle,
  RegisteredVehicle,
  replaceVehicleCompanies,
} from './vehicles/vehicle-registry.service';
export { createRegistryAdmin } from './admin/registry-admin';
export { NEAREST_ANCHOR_SLACK_DEGREES } from './positions/nearest-anchor';
