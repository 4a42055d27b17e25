import { commandProfiles } from '../commands/command-profiles';
import { SourceNetworks } from '../osmand/source-networks';
import { DeviceSettingsException } from './device-settings.exception';

/**
 * The rules of an operator's change to a tracker's settings, shared by the admin CLI (`devices:set`)
 * and the route (`PUT /v2/api/vehicles/{id}/device-settings`): what each value may be, and what an
 * omitted one means (unchanged). Pure; each failure is a
 * DeviceSettingsException naming the field as the caller's interface writes it.
 */

/** The value of `profile` that goes back to the protocol's default profile. */
export const DEFAULT_PROFILE = 'default';
/** The value of the networks setting that lifts the pinning. */
export const ANY_NETWORK = 'any';
/**
 * Where the demo fleet's simulated Teltonika and GT06 trackers connect from (this machine): they are
 * pinned to it, as an operator pins real ones to their APN, so that their commands reach them.
 */
export const DEMO_TRACKER_NETWORKS: readonly string[] = ['127.0.0.0/8', '::1/128'];
/** Networks one device may be pinned to: an APN or two, a few carrier ranges. */
export const MAX_ALLOWED_NETWORKS = 32;
/**
 * The largest clock offset either way: 2048 GPS weeks (about 39 years). A device reporting local
 * time as UTC is off by at most 14 hours, but a receiver hit by the GPS week-number rollover reports
 * dates 1024 weeks (or a multiple) in the past, and an offset corrects that too.
 */
export const MAX_CLOCK_OFFSET_SECONDS = 2048 * 7 * 86_400;

/** What to change; an absent key leaves that setting as it is. */
export interface DeviceSettingsChange {
  /** A name of `commandProfiles`, or null for the protocol's default. */
  commandProfile?: string | null;
  /** Address blocks, or null for any network. */
  allowedNetworks?: string[] | null;
  clockOffsetSeconds?: number;
  /** `new`: generate a secret (answered once); `clear`: require none. */
  secret?: 'new' | 'clear';
  /** true: the operator opts the device out of authenticated commands (docs/security.md, F1). */
  insecureCommands?: boolean;
}

/** An operator's input as it arrives, before the rules. */
export interface DeviceSettingsInput {
  profile?: string;
  /** Comma-separated text, or a list of such texts (a repeated parameter). */
  networks?: string | readonly string[];
  /** A number, or its decimal text (the CLI). */
  clockOffsetSeconds?: number | string;
  newSecret?: boolean;
  clearSecret?: boolean;
  insecureCommands?: boolean;
}

/** How the caller's interface names each input, for the messages. */
export interface DeviceSettingNames {
  profile: string;
  networks: string;
  clockOffsetSeconds: string;
  newSecret: string;
  clearSecret: string;
  insecureCommands: string;
}

const INTEGER = /^[+-]?\d+$/;

/** The change an input asks for; throws a DeviceSettingsException (422) for the first bad value, or when it asks for nothing. */
export function deviceSettingsChange(
  input: DeviceSettingsInput,
  names: DeviceSettingNames,
): DeviceSettingsChange {
  const change: DeviceSettingsChange = {};
  if (input.profile !== undefined) change.commandProfile = profileOf(input.profile, names.profile);
  if (input.networks !== undefined) change.allowedNetworks = networksOf(input.networks, names.networks);
  if (input.clockOffsetSeconds !== undefined) {
    change.clockOffsetSeconds = clockOffsetOf(input.clockOffsetSeconds, names.clockOffsetSeconds);
  }
  if (input.newSecret && input.clearSecret) {
    throw DeviceSettingsException.invalid(
      names.newSecret,
      `give either ${names.newSecret} or ${names.clearSecret}, not both`,
    );
  }
  if (input.newSecret) change.secret = 'new';
  if (input.clearSecret) change.secret = 'clear';
  if (input.insecureCommands !== undefined) change.insecureCommands = input.insecureCommands;
  if (Object.keys(change).length === 0) {
    const fields = [
      names.profile,
      names.networks,
      names.clockOffsetSeconds,
      names.newSecret,
      names.clearSecret,
      names.insecureCommands,
    ];
    throw DeviceSettingsException.invalid(
      names.profile,
      `nothing to change: give one or more of ${fields.join(', ')}`,
    );
  }
  return change;
}

function profileOf(value: string, field: string): string | null {
  const name = value.trim();
  if (name === DEFAULT_PROFILE) return null;
  if (Object.hasOwn(commandProfiles, name)) return name;
  const known = [DEFAULT_PROFILE, ...Object.keys(commandProfiles)].join(', ');
  throw DeviceSettingsException.invalid(
    field,
    `${JSON.stringify(shown(name))} is not a command profile (${known})`,
  );
}

function networksOf(value: string | readonly string[], field: string): string[] | null {
  const texts = typeof value === 'string' ? [value] : value;
  const entries = [
    ...new Set(
      texts
        .flatMap((text) => text.split(','))
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    ),
  ];
  if (entries.length === 0) {
    throw DeviceSettingsException.invalid(field, `give address blocks (e.g. 10.20.0.0/16) or ${ANY_NETWORK}`);
  }
  if (entries.includes(ANY_NETWORK)) {
    if (entries.length > 1) throw DeviceSettingsException.invalid(field, `${ANY_NETWORK} stands alone`);
    return null;
  }
  if (entries.length > MAX_ALLOWED_NETWORKS) {
    throw DeviceSettingsException.invalid(
      field,
      `at most ${MAX_ALLOWED_NETWORKS} address blocks, not ${entries.length}`,
    );
  }
  try {
    SourceNetworks.parse(entries);
  } catch {
    const bad = entries.find((entry) => !parses(entry)) ?? entries[0];
    throw DeviceSettingsException.invalid(
      field,
      `${JSON.stringify(shown(bad))} is not an IP address or CIDR block (e.g. 10.20.0.0/16)`,
    );
  }
  return entries;
}

function parses(entry: string): boolean {
  try {
    SourceNetworks.parse([entry]);
    return true;
  } catch {
    return false;
  }
}

function clockOffsetOf(value: number | string, field: string): number {
  const number = typeof value === 'number' ? value : INTEGER.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isInteger(number)) {
    throw DeviceSettingsException.invalid(
      field,
      `${JSON.stringify(shown(String(value)))} is not a whole number of seconds`,
    );
  }
  if (Math.abs(number) > MAX_CLOCK_OFFSET_SECONDS) {
    throw DeviceSettingsException.invalid(
      field,
      `must be between -${MAX_CLOCK_OFFSET_SECONDS} and ${MAX_CLOCK_OFFSET_SECONDS} seconds, not ${number}`,
    );
  }
  // -0 would be stored as 0 anyway; answer it as 0 too.
  return number === 0 ? 0 : number;
}

/** Echoed values are cut, so that a message stays short whatever was sent. */
function shown(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
