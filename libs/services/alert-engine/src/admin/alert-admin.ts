import { Outbox } from '@fleet/platform';
import { DataSource } from 'typeorm';
import { ALERTS_SCHEMA } from '../alert-engine.schema.constants';
import { AlertConfigurationsService } from '../configurations/alert-configurations.service';
import { GeofencesService } from '../geofences/geofences.service';

/**
 * alert-engine's operations for operators, on a DataSource of the alerts schema: the services the
 * routes use, so a change made here is checked and announced to the engine exactly as one made
 * through the API is (the running service relays what they publish).
 */
export function createAlertAdmin(dataSource: DataSource) {
  return {
    geofences: new GeofencesService(dataSource),
    configurations: new AlertConfigurationsService(dataSource, Outbox.writeOnly(dataSource, ALERTS_SCHEMA)),
  };
}
