export * from './alert-engine.module';
export * from './alert-engine.schema';
export * from './alert-engine.config';
export {
  AlertConfigurationsService,
  NewAlertConfiguration,
  AlertConfigurationChange,
  AlertConfigurationView,
} from './configurations/alert-configurations.service';
export { GeofencesService, NewGeofence, GeofenceChange, GeofenceView } from './geofences/geofences.service';
export { createAlertAdmin } from './admin/alert-admin';
export * from './configurations/rule-versions.queries';
export { AlertVehicles } from './vehicles/alert-vehicles';
