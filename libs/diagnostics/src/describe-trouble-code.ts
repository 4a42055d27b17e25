import { catalogueDescription } from './catalogue';
import { SEVERITY_ADVICE, severityOf, TroubleCodeSeverity } from './severity';
import {
  decodeTroubleCode,
  DecodedTroubleCode,
  Subsystem,
  TroubleCodeSystem,
  TroubleCodeType,
} from './trouble-code';

/** A trouble code explained for a fleet manager: what the engine-code routes answer per code. */
export interface TroubleCodeDescription {
  code: string;
  /** The catalogue's description, or a fallback built from the code's digits (see `fallbackDescription`). */
  description: string;
  /** What it means and what to do, in plain language (see `analysisOf`). */
  analysis: string;
  severity: TroubleCodeSeverity;
  detectionLocation: { system: TroubleCodeSystem; subsystem: string; codeType: TroubleCodeType };
}

/**
 * What a group of codes is about, in a sentence a driver understands. Groups without a sentence
 * (reserved and mixed ranges, manufacturer groups) add nothing rather than something vague.
 */
const GROUP_EXPLANATIONS: Readonly<Record<string, string>> = {
  [Subsystem.fuelAirAndEmissions]:
    'Codes in this group mostly concern how the engine measures its air and meters its fuel, and the emission controls around them.',
  [Subsystem.fuelAir]:
    'Codes in this group mostly concern how the engine measures its air and meters its fuel, with the sensors the mixture is adjusted by.',
  [Subsystem.fuelAirInjectors]:
    'Codes in this group mostly concern fuel delivery (injectors, fuel pumps and pressures) and turbo or supercharger boost.',
  [Subsystem.ignition]:
    'Codes in this group mostly concern ignition and combustion: a cylinder that misfires wastes fuel, and the unburnt fuel can overheat the catalytic converter.',
  [Subsystem.emissions]:
    'Codes in this group mostly concern emission control: exhaust gas recirculation, the catalytic converter, secondary air and fuel vapour (EVAP) recovery.',
  [Subsystem.speedIdleInputs]:
    'Codes in this group mostly concern vehicle and idle speed control, and switches and sensors the engine computer reads.',
  [Subsystem.auxiliaryInputs]:
    'Codes in this group mostly concern switches and sensors the engine computer reads.',
  [Subsystem.computerOutputs]:
    'Codes in this group mostly concern the engine control computer itself and the circuits it drives.',
  [Subsystem.transmission]:
    'Codes in this group mostly concern the transmission: its sensors, solenoids, clutches and control unit.',
  [Subsystem.hybrid]:
    'Codes in this group mostly concern the high-voltage drive (battery, electric motors, inverters, charging), which only trained staff should work on.',
  [Subsystem.cylinderDeactivation]:
    'Codes in this group concern the system that shuts cylinders off at light load to save fuel.',
  [Subsystem.restraints]:
    'Codes in this group mostly concern airbags, seat belt tensioners and their sensors, which may not work in a crash while a fault is stored.',
  [Subsystem.bodyElectrics]:
    'Codes in this group mostly concern body electrics such as lighting, locks, windows, climate and comfort functions.',
  [Subsystem.chassis]:
    'Chassis codes concern brakes, traction and stability control, steering, suspension and tyre monitoring.',
  [Subsystem.networkElectrical]:
    'Network codes mean control units are not exchanging data properly; wiring, connectors, a weak battery or a failed unit are the usual causes.',
  [Subsystem.networkCommunication]:
    'Network codes mean control units are not exchanging data properly; wiring, connectors, a weak battery or a failed unit are the usual causes.',
  [Subsystem.networkSoftware]:
    'Codes in this group mean control units run software versions that do not fit together, often after a part was replaced or updated.',
  [Subsystem.networkData]:
    'Codes in this group mean a control unit received data it could not trust from another unit, which then often has a fault of its own.',
};

/** "Fuel and air metering" → "fuel and air metering" inside a sentence; an acronym ("ISO/SAE") stays. */
const lower = (text: string) =>
  /^[A-Z]{2}/.test(text) ? text : text.charAt(0).toLowerCase() + text.slice(1);

/**
 * The description of a code the catalogue does not know (a manufacturer code, or a generic one too
 * new for it): what the digits say, e.g. "Manufacturer-specific powertrain code (fuel and air metering)".
 */
export function fallbackDescription(decoded: DecodedTroubleCode): string {
  const kind = decoded.codeType === 'Manufacturer' ? 'Manufacturer-specific' : 'Generic';
  return `${kind} ${decoded.system.toLowerCase()} code (${lower(decoded.subsystem)})`;
}

/**
 * The analysis: the description, the group the code belongs to and what that group is about, what
 * a circuit code usually points to, and what the severity asks for. Built from those parts only,
 * so every code gets the same kind of answer and no text is invented per code.
 */
export function analysisOf(
  decoded: DecodedTroubleCode,
  description: string | undefined,
  severity: TroubleCodeSeverity,
): string {
  const sentences: string[] = [];
  const where = `${decoded.system.toLowerCase()} code in the "${lower(decoded.subsystem)}" group`;
  if (description !== undefined) {
    sentences.push(
      `${decoded.code} reports: ${description}. It is a ${decoded.codeType === 'Generic' ? 'generic' : 'manufacturer-specific'} ${where}.`,
    );
  } else {
    sentences.push(
      `${decoded.code} is a ${decoded.codeType === 'Generic' ? 'generic' : 'manufacturer-specific'} ${where}.`,
    );
  }
  const group = GROUP_EXPLANATIONS[decoded.subsystem];
  if (group) sentences.push(group);
  if (description === undefined) {
    sentences.push(
      decoded.codeType === 'Manufacturer'
        ? "Its exact meaning is the manufacturer's: a dealer scan tool or the manufacturer's service information gives it."
        : 'Its exact meaning is not in the catalogue: a current scan tool gives it.',
    );
  } else if (/\bcircuit\b/i.test(description)) {
    sentences.push(
      'A circuit fault is often in the wiring, a connector or a fuse rather than in the part itself, so those are worth checking first.',
    );
  }
  sentences.push(`Severity ${severity.toLowerCase()}: ${SEVERITY_ADVICE[severity]}.`);
  return sentences.join(' ');
}

/**
 * A trouble code explained: description, analysis, severity and where it was detected; undefined when
 * `code` is not a trouble code (it must be upper case, `^[PCBU][0-3][0-9A-F]{3}$`).
 */
export function describeTroubleCode(code: string): TroubleCodeDescription | undefined {
  const decoded = decodeTroubleCode(code);
  if (!decoded) return undefined;
  const known = catalogueDescription(code);
  const { severity } = severityOf({ decoded, description: known });
  return {
    code,
    description: known ?? fallbackDescription(decoded),
    analysis: analysisOf(decoded, known, severity),
    severity,
    detectionLocation: { system: decoded.system, subsystem: decoded.subsystem, codeType: decoded.codeType },
  };
}
