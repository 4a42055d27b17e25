import { setTimeout as sleep } from 'node:timers/promises';
import { AlertConfigurationsService, AlertVehicles, GeofencesService } from '@fleet/alert-engine-service';
import { INestApplicationContext } from '@nestjs/common';
import type { DemoAlertServices } from '@fleet/simulator';

/** Every row of a company: the demo has a few dozen. */
const ALL = { limit: 1_000_000, offset: 0 };
/** How long the seeding waits for alert-engine to learn the demo vehicles from their snapshots. */
const VEHICLES_KNOWN_WITHIN_MS = 30_000;

/**
 * alert-engine's services as the demo seeding uses them. A configuration naming vehicles is created
 * only once alert-engine's projection holds them (it validates vehicle ids against it): the demo
 * registers its vehicles moments before, and their snapshots travel through the transport.
 */
export function demoAlertServices(app: INestApplicationContext): DemoAlertServices {
  const geofences = app.get(GeofencesService);
  const configurations = app.get(AlertConfigurationsService);
  const vehicles = app.get(AlertVehicles);

  const untilKnown = async (vehicleIds: readonly number[]): Promise<void> => {
    const deadline = Date.now() + VEHICLES_KNOWN_WITHIN_MS;
    while ((await vehicles.known(vehicleIds)).length < new Set(vehicleIds).size) {
      if (Date.now() > deadline) {
        throw new Error(`alert-engine did not learn vehicles ${vehicleIds.join(', ')} within 30 s`);
      }
      await sleep(100);
    }
  };

  return {
    geofences: {
      create: (companyId, input) => geofences.create(companyId, input),
      list: async (companyId) => (await geofences.list(companyId, ALL)).rows,
    },
    configurations: {
      create: async (companyId, input) => {
        await untilKnown(input.vehicleIds ?? []);
        return configurations.create(companyId, { ...input, settings: { ...input.settings } });
      },
      list: async (companyId) => (await configurations.list(companyId, ALL)).rows,
    },
  };
}
