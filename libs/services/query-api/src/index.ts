export * from './query-api.module';
export * from './query-api.schema';
export * from './query-api.config';
export {
  VehicleRegistry,
  NewVehicle,
  RegisteredVehicle,
  VehicleChanges,
  replaceVehicleCompanies,
} from './vehicles/vehicle-registry.service';
export { normalizeTags, MAX_TAGS_PER_VEHICLE, MAX_TAG_LENGTH } from './vehicles/vehicle-tags';
export { createRegistryAdmin } from './admin/registry-admin';
export { NEAREST_ANCHOR_SLACK_DEGREES } from './positions/nearest-anchor';
export { InsightRetention } from './insights/insight-retention';
export { StreamService } from './live/stream.service';
