import { DecodedTroubleCode, Subsystem } from './trouble-code';

/**
 * How urgent a trouble code is, for a fleet manager deciding whether a vehicle keeps driving. The
 * levels, the rules that assign them and why are in docs/engine-codes.md, "Severity"; this file is
 * that table, in the same order.
 */
export type TroubleCodeSeverity = 'Critical' | 'High' | 'Medium' | 'Low';

/** What each level asks of the fleet. */
export const SEVERITY_ADVICE: Readonly<Record<TroubleCodeSeverity, string>> = {
  Critical: 'stop as soon as it is safe and have the vehicle inspected before it is driven on',
  High: 'have the vehicle inspected within a few days, and spare it long or heavy trips until then',
  Medium: 'book a workshop visit in the coming weeks; the vehicle can normally be driven meanwhile',
  Low: 'have it fixed at the next scheduled service',
};

/** A code as the rules see it: its decoding, and the catalogue's description when there is one. */
export interface SeverityInput {
  decoded: DecodedTroubleCode;
  description?: string;
}

export interface SeverityRule {
  severity: TroubleCodeSeverity;
  /** Why: shown in the documentation's table. */
  reason: string;
  applies(input: SeverityInput): boolean;
}

const codes = (...list: string[]) => {
  const set = new Set(list);
  return ({ decoded }: SeverityInput) => set.has(decoded.code);
};
const describedAs =
  (pattern: RegExp, system?: DecodedTroubleCode['system']) =>
  ({ decoded, description }: SeverityInput) =>
    description !== undefined && (!system || decoded.system === system) && pattern.test(description);

const RESTRAINT = /air ?bag|restraint|seat ?belt|deploy|pretension|occupant|squib/i;
const SAFETY_MODULE =
  /ECM|PCM|TCM|ABS|anti-lock|brake|restraint|power steering|steering (effort|column|angle)/i;
const CHASSIS_SAFETY = /brake|ABS|anti-lock|EBCM|TCS|steering|stability|yaw|traction|wheel speed/i;

/**
 * The rules, first match wins. Explicit code lists name generic codes (their meaning is the same on
 * every vehicle); description patterns read the catalogue's text, so they only ever apply to codes the
 * catalogue knows; the last rules fall back on the system and subsystem, which every code has.
 */
export const SEVERITY_RULES: readonly SeverityRule[] = [
  {
    severity: 'Critical',
    reason:
      'engine or transmission overheating, engine overspeed, engine oil pressure too low (P0217, P0218, P0219, P0298, P0524): running on destroys the engine or gearbox',
    applies: codes('P0217', 'P0218', 'P0219', 'P0298', 'P0524'),
  },
  {
    severity: 'Critical',
    reason: 'fuel system large leak (P0093): fire risk',
    applies: codes('P0093'),
  },
  {
    severity: 'Critical',
    reason: 'brake fluid low (C0049, C0128): braking may fail',
    applies: codes('C0049', 'C0128'),
  },
  {
    severity: 'Critical',
    reason: 'high-voltage isolation fault (description "Isolation Fault"): risk of electric shock',
    applies: describedAs(/isolation fault/i),
  },
  {
    severity: 'High',
    reason:
      'misfire (description "Misfire", e.g. P0300–P0316): power loss, and unburnt fuel overheats the catalytic converter',
    applies: describedAs(/\bmisfire\b/i),
  },
  {
    severity: 'High',
    reason: 'a component over temperature (description "Over Temperature"/"Overtemperature")',
    applies: describedAs(/over ?temperature/i),
  },
  {
    severity: 'High',
    reason:
      'fuel pressure, boost, supply voltage or engine computer faults that can stall or strand the vehicle (P0087, P0088, P0234, P0335–P0339, P0562, P0563, P0606)',
    applies: codes(
      'P0087',
      'P0088',
      'P0234',
      'P0335',
      'P0336',
      'P0337',
      'P0338',
      'P0339',
      'P0562',
      'P0563',
      'P0606',
    ),
  },
  {
    severity: 'High',
    reason:
      'hybrid battery to be replaced or its voltage low, hybrid engine failed to start (P0A80, P0A0F, P0AFA), high-voltage interlock or isolation warnings',
    applies: (input) =>
      codes('P0A80', 'P0A0F', 'P0AFA')(input) ||
      describedAs(/high voltage (system )?interlock|isolation (warning|performance)/i)(input),
  },
  {
    severity: 'High',
    reason: 'airbags, seat belts and their sensors (restraint codes): they may not protect in a crash',
    applies: (input) =>
      input.decoded.system === 'Body' &&
      (input.description === undefined
        ? input.decoded.subsystem === Subsystem.restraints
        : RESTRAINT.test(input.description)),
  },
  {
    severity: 'High',
    reason: 'lost communication with the engine, transmission, brake, steering or restraint control units',
    applies: (input) =>
      input.decoded.subsystem === Subsystem.networkCommunication &&
      describedAs(SAFETY_MODULE, 'Network')(input),
  },
  {
    severity: 'High',
    reason: 'low tyre pressure (C0077): an under-inflated tyre can fail at speed',
    applies: codes('C0077'),
  },
  {
    severity: 'Low',
    reason:
      'tyre pressure monitoring (description "Tire Pressure"/"TPMS"): check the tyres by hand meanwhile',
    applies: describedAs(/tire pressure|TPMS/i, 'Chassis'),
  },
  {
    severity: 'High',
    reason: 'brakes, ABS, stability and traction control, steering (chassis codes describing them)',
    applies: describedAs(CHASSIS_SAFETY, 'Chassis'),
  },
  {
    severity: 'Medium',
    reason: 'evaporative system large leak (P0455, P04EC, P04ED): fuel vapour escapes',
    applies: codes('P0455', 'P04EC', 'P04ED'),
  },
  {
    severity: 'Low',
    reason:
      'evaporative emission (EVAP) system: small leaks, a loose fuel cap, purge and vent valves; emissions only',
    applies: describedAs(/^(EVAP|Evaporative Emission)/i),
  },
  {
    severity: 'Medium',
    reason:
      'catalyst, NOx or particulate filter efficiency below threshold: emissions, and the part is wearing out',
    applies: describedAs(/efficiency below threshold/i),
  },
  {
    severity: 'Low',
    reason: 'other body codes: lighting, locks, windows, climate, comfort',
    applies: ({ decoded }) => decoded.system === 'Body',
  },
  {
    severity: 'Medium',
    reason: 'everything else: powertrain, chassis and network codes, known or manufacturer-specific',
    applies: () => true,
  },
];

/** The severity of a code and the rule that gave it. */
export function severityOf(input: SeverityInput): { severity: TroubleCodeSeverity; rule: SeverityRule } {
  const rule = SEVERITY_RULES.find((candidate) => candidate.applies(input))!;
  return { severity: rule.severity, rule };
}
