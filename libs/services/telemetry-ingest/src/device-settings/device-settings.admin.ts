import { DataSource } from 'typeorm';
import { commandProfiles, defaultCommandProfile } from '../commands/command-profiles';
import { DeviceSettingsException, DeviceSettingsExceptionCode } from './device-settings.exception';
import { DeviceSettingsView, viewOf } from './device-settings.model';
import { DeviceSettingNames, DeviceSettingsInput, deviceSettingsChange } from './device-settings.rules';
import { DeviceSettingsQueries } from './device-settings.queries';
import { DeviceSettingsStore } from './device-settings.store';

/** The CLI's option names, for the rules' messages. */
const CLI_NAMES: DeviceSettingNames = {
  profile: '--profile',
  networks: '--networks',
  clockOffsetSeconds: '--clock-offset',
  newSecret: '--new-secret',
  clearSecret: '--clear-secret',
  insecureCommands: '--insecure-commands',
};

/** A command profile as `devices:profiles` lists it: every text it sends. */
export interface CommandProfileListing {
  name: string;
  protocol: string;
  /** Whether devices of its protocol get it when no profile was chosen. */
  isDefault: boolean;
  summary: string;
  doorLock: { lock: string; unlock: string } | null;
  ignition: { disable: string; enable: string } | null;
  locate: string | null;
}

/**
 * telemetry-ingest's operations for operators (`npm run admin -- devices:...`), on a DataSource of the
 * ingest schema. A running service sees a change within INGEST_DEVICE_CACHE_SECONDS plus one refresh.
 */
export function createDeviceSettingsAdmin(dataSource: DataSource) {
  const store = new DeviceSettingsStore(new DeviceSettingsQueries(dataSource));
  /** Only vehicles ingest knows: a mistyped id must not leave settings behind for nobody. */
  const known = async (vehicleId: number) => {
    if ((await store.companiesOf(vehicleId)) === undefined) {
      throw new DeviceSettingsException(
        DeviceSettingsExceptionCode.VehicleNotFound,
        `Vehicle ${vehicleId} is not known to telemetry-ingest (not registered, or its registration has not reached it yet).`,
      );
    }
  };
  return {
    async show(vehicleId: number): Promise<DeviceSettingsView> {
      await known(vehicleId);
      const [row] = await store.read([vehicleId]);
      return viewOf(vehicleId, row);
    },

    /** Applies the change; a new secret is in the answer, and nowhere else, ever. */
    async set(
      vehicleId: number,
      input: DeviceSettingsInput,
    ): Promise<DeviceSettingsView & { secret?: string }> {
      const change = deviceSettingsChange(input, CLI_NAMES);
      await known(vehicleId);
      const { row, secret } = await store.write(vehicleId, change);
      return secret === undefined ? viewOf(vehicleId, row) : { ...viewOf(vehicleId, row), secret };
    },
  };
}

/** The shipped command profiles with every text they send (`devices:profiles`; no database needed). */
export function listCommandProfiles(): CommandProfileListing[] {
  return Object.values(commandProfiles).map((profile) => ({
    name: profile.name,
    protocol: profile.protocol,
    isDefault: defaultCommandProfile[profile.protocol] === profile.name,
    summary: profile.summary,
    doorLock: profile.doorLock ?? null,
    ignition: profile.ignition ?? null,
    locate: profile.locate ?? null,
  }));
}

export type DeviceSettingsAdmin = ReturnType<typeof createDeviceSettingsAdmin>;
