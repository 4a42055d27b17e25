import { OutputWiring } from '../teltonika/teltonika-readings';
import { HandedCommand } from './device-command-answer';

/** The tracker protocols that take commands on their open connection. */
export type CommandProtocol = 'teltonika' | 'gt06';

/**
 * What a model of tracker is sent for each action, as it is wired in the vehicle. An action a profile
 * lacks fails at once with a reason, rather than waiting for an answer that cannot come.
 */
export interface CommandProfile {
  name: string;
  protocol: CommandProtocol;
  summary: string;
  doorLock?: { lock: string; unlock: string };
  /** `disable` immobilises, `enable` releases. */
  ignition?: { disable: string; enable: string };
  locate?: string;
  /** How the outputs read back into the position record (door and engine state). */
  wiring: OutputWiring;
}

/**
 * The shipped profiles (docs/trackers.md, "Command profiles"). Teltonika's `setdigout` takes one
 * character per output, `?` leaving an output as it is: with DOUT1 on the starter relay and DOUT2 on the
 * central-lock input, `setdigout 1?` immobilises and `setdigout ?1` locks.
 */
export const commandProfiles: Readonly<Record<string, CommandProfile>> = {
  'teltonika-fmb': {
    name: 'teltonika-fmb',
    protocol: 'teltonika',
    summary: 'Teltonika FMB/FMC/FMM with DOUT1 on the immobiliser relay and DOUT2 on the central lock',
    ignition: { disable: 'setdigout 1?', enable: 'setdigout 0?' },
    doorLock: { lock: 'setdigout ?1', unlock: 'setdigout ?0' },
    locate: 'getgps',
    wiring: { immobiliserOutput: 1, doorLockOutput: 2 },
  },
  'teltonika-fmb-can': {
    name: 'teltonika-fmb-can',
    protocol: 'teltonika',
    summary:
      'Teltonika FMB with an LV-CAN200/ALL-CAN300 adapter locking the doors over CAN; DOUT1 immobilises',
    ignition: { disable: 'setdigout 1', enable: 'setdigout 0' },
    doorLock: { lock: 'lvcanlockalldoors', unlock: 'lvcanunlockalldoors' },
    locate: 'getgps',
    wiring: { immobiliserOutput: 1 },
  },
  'gt06-relay': {
    name: 'gt06-relay',
    protocol: 'gt06',
    summary: 'Concox GT06 and compatibles with the relay on the fuel pump or starter (no door output)',
    ignition: { disable: 'Relay,1#', enable: 'Relay,0#' },
    locate: 'WHERE#',
    wiring: {},
  },
};

/** The profile a device of the protocol gets when an operator chose none. */
export const defaultCommandProfile: Record<CommandProtocol, string> = {
  teltonika: 'teltonika-fmb',
  gt06: 'gt06-relay',
};

/** The profile to use for a device: the operator's choice if it fits the protocol, else the default. */
export function profileFor(protocol: CommandProtocol, chosen: string | null | undefined): CommandProfile {
  const profile = chosen ? commandProfiles[chosen] : undefined;
  return profile?.protocol === protocol ? profile : commandProfiles[defaultCommandProfile[protocol]];
}

/** The text the profile sends for a command, or undefined when the profile cannot carry it out. */
export function commandText(profile: CommandProfile, command: HandedCommand): string | undefined {
  switch (command.type) {
    case 'doorLock':
      return command.lock ? profile.doorLock?.lock : profile.doorLock?.unlock;
    case 'ignition':
      return command.on ? profile.ignition?.enable : profile.ignition?.disable;
    case 'locate':
      return profile.locate;
  }
}
