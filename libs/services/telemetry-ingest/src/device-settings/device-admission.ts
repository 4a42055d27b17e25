import { deviceSecretMatches } from './device-secret';
import { DeviceSettings } from './device-settings.model';

/** Why a known device's report is refused before anything of it is used. */
export type AdmissionRefusal = 'source_not_allowed' | 'secret_required' | 'secret_wrong';

/**
 * Whether a report of a known device may be used (docs/device-settings.md): it must come from the
 * networks its operator pinned it to, if any, and carry its secret, if one was set. Pure; the secret is
 * compared in constant time.
 */
export function admissionRefusal(
  settings: DeviceSettings,
  source: string | undefined,
  secret: string | undefined,
): AdmissionRefusal | undefined {
  if (settings.allowedNetworks && !settings.allowedNetworks.admits(source)) return 'source_not_allowed';
  if (settings.secretHash === null) return undefined;
  if (secret === undefined) return 'secret_required';
  return deviceSecretMatches(secret, settings.secretHash) ? undefined : 'secret_wrong';
}
