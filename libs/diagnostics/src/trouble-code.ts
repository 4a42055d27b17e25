/**
 * What a diagnostic trouble code says by its characters alone (SAE J2012 / ISO 15031-6), without a
 * catalogue: so a manufacturer code no catalogue knows still shows where in the vehicle it was raised.
 * The rules and their labels are in docs/engine-codes.md, "Decoding".
 */

/** The shape of a trouble code: system letter, then four hex digits with the second character 0–3. Upper case only. */
export const TROUBLE_CODE_PATTERN = /^[PCBU][0-3][0-9A-F]{3}$/;

export type TroubleCodeSystem = 'Powertrain' | 'Chassis' | 'Body' | 'Network';

/**
 * `Generic`: defined by the standard, the same on every vehicle (SAE/ISO controlled, including the
 * ranges the standard reserves for itself). `Manufacturer`: each manufacturer defines its own meaning.
 */
export type TroubleCodeType = 'Generic' | 'Manufacturer';

export interface DecodedTroubleCode {
  code: string;
  system: TroubleCodeSystem;
  codeType: TroubleCodeType;
  /** The group the code's third character (with its second) places it in. */
  subsystem: string;
}

const SYSTEMS: Record<string, TroubleCodeSystem> = {
  P: 'Powertrain',
  C: 'Chassis',
  B: 'Body',
  U: 'Network',
};

/** Subsystem labels shared by the tables below, so that equal groups read equal everywhere. */
export const Subsystem = {
  fuelAirAndEmissions: 'Fuel and air metering and auxiliary emission controls',
  fuelAir: 'Fuel and air metering',
  fuelAirInjectors: 'Fuel and air metering, injector circuit',
  ignition: 'Ignition system or misfire',
  emissions: 'Auxiliary emission controls',
  speedIdleInputs: 'Vehicle speed, idle control and auxiliary inputs',
  auxiliaryInputs: 'Auxiliary inputs',
  computerOutputs: 'Computer and output circuits',
  transmission: 'Transmission',
  hybrid: 'Hybrid and electric propulsion',
  generalPowertrain: 'General powertrain',
  cylinderDeactivation: 'Cylinder deactivation',
  manufacturerDefined: 'Manufacturer-defined',
  reserved: 'ISO/SAE reserved',
  restraints: 'Restraints (airbags, seat belts)',
  bodyElectrics: 'Body electrics and comfort',
  chassis: 'Brakes, traction, steering and suspension',
  networkElectrical: 'Network electrical (communication bus)',
  networkCommunication: 'Network communication (lost communication)',
  networkSoftware: 'Network software (incompatibility)',
  networkData: 'Network data (invalid data received)',
  networkOther: 'Network (other)',
  controlModules: 'Control modules (ISO/SAE range)',
} as const;

/** Third character → group, for P0xxx codes and, by the usual convention, P1xxx ones. */
const P0_GROUPS: Record<string, string> = {
  '0': Subsystem.fuelAirAndEmissions,
  '1': Subsystem.fuelAir,
  '2': Subsystem.fuelAirInjectors,
  '3': Subsystem.ignition,
  '4': Subsystem.emissions,
  '5': Subsystem.speedIdleInputs,
  '6': Subsystem.computerOutputs,
  '7': Subsystem.transmission,
  '8': Subsystem.transmission,
  '9': Subsystem.transmission,
  A: Subsystem.hybrid,
  B: Subsystem.hybrid,
  C: Subsystem.hybrid,
  D: Subsystem.hybrid,
  E: Subsystem.hybrid,
  F: Subsystem.reserved,
};

/** Third character → group, for P2xxx codes; P2B–P2F hold recent allocations of mixed areas. */
const P2_GROUPS: Record<string, string> = {
  '0': Subsystem.fuelAirAndEmissions,
  '1': Subsystem.fuelAirAndEmissions,
  '2': Subsystem.fuelAirAndEmissions,
  '3': Subsystem.ignition,
  '4': Subsystem.emissions,
  '5': Subsystem.auxiliaryInputs,
  '6': Subsystem.computerOutputs,
  '7': Subsystem.transmission,
  '8': Subsystem.transmission,
  '9': Subsystem.transmission,
  A: Subsystem.fuelAirAndEmissions,
};

/** Third character → group, for U0xxx codes. */
const U0_GROUPS: Record<string, string> = {
  '0': Subsystem.networkElectrical,
  '1': Subsystem.networkCommunication,
  '2': Subsystem.networkCommunication,
  '3': Subsystem.networkSoftware,
  '4': Subsystem.networkData,
  '5': Subsystem.networkData,
};

/**
 * Generic or manufacturer-defined, by the second character: 0 and 2 (P), 0 and 3 (B, C, U) are the
 * standard's; 1 is the manufacturer's, and so is 2 for B, C and U. P3 is split: P3000–P33FF belong to
 * the manufacturer, P3400–P3FFF to the standard.
 */
function codeTypeOf(letter: string, second: string, third: string): TroubleCodeType {
  if (second === '1') return 'Manufacturer';
  if (letter === 'P') {
    if (second === '3') return parseInt(third, 16) <= 3 ? 'Manufacturer' : 'Generic';
    return 'Generic';
  }
  return second === '2' ? 'Manufacturer' : 'Generic';
}

function subsystemOf(letter: string, second: string, third: string): string {
  switch (letter) {
    case 'P':
      if (second === '0' || second === '1') return P0_GROUPS[third];
      if (second === '2') return P2_GROUPS[third] ?? Subsystem.generalPowertrain;
      if (parseInt(third, 16) <= 3) return Subsystem.manufacturerDefined;
      return third === '4' ? Subsystem.cylinderDeactivation : Subsystem.reserved;
    case 'B':
      return second === '0' && third === '0' ? Subsystem.restraints : Subsystem.bodyElectrics;
    case 'C':
      return Subsystem.chassis;
    default:
      if (second === '0') return U0_GROUPS[third] ?? Subsystem.networkOther;
      return second === '3' ? Subsystem.controlModules : Subsystem.manufacturerDefined;
  }
}

/**
 * The system, code type and subsystem of a trouble code, or undefined when `code` is not one: the
 * input must already be upper case and exactly five characters (what telemetry-ingest stores), so
 * `p0300`, ` P0300` and `P4300` are all undefined rather than guessed at.
 */
export function decodeTroubleCode(code: string): DecodedTroubleCode | undefined {
  if (typeof code !== 'string' || !TROUBLE_CODE_PATTERN.test(code)) return undefined;
  const [letter, second, third] = code;
  return {
    code,
    system: SYSTEMS[letter],
    codeType: codeTypeOf(letter, second, third),
    subsystem: subsystemOf(letter, second, third),
  };
}
