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
export { PositionHistory } from './positions/position-history';
export { StreamService } from './live/stream.service';
// The read paths bench/query's bare server runs without the framework (the same SQL, fed a pg pool).
export { LastPositionQueries } from './last-positions/last-position.queries';
export { NearestQueries } from './nearest/nearest.queries';
export { VehicleAccess } from './common/vehicle-access';
export { VisibleVehicles } from './common/visible-vehicles';
export { BatteryHealthQueries } from './insights/battery/battery-health.queries';
export { BatteryHealthService } from './insights/battery/battery-health.service';
export { SafetyScoreService } from './insights/safety-score/safety-score.service';
export { ScoreIntervalType } from './insights/safety-score/score-window';
