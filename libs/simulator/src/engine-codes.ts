import { Random } from './random';
import type { VehicleTraits } from './vehicle-traits';

/**
 * The trouble codes of the engineCodes vehicle (VehicleTraits): a misfire of cylinder 1, a lean
 * mixture, and a manufacturer-specific code (P1xxx), reported with the ignition on (`dtcs`).
 */
export const ENGINE_CODES: readonly string[] = ['P0301', 'P0171', 'P1A2B'];
/**
 * The misfire (the first code) is repaired this long after the simulation's start and no longer
 * reported, so the vehicle shows a code that went inactive next to active ones.
 */
export const ENGINE_CODE_CLEARED_AFTER_S = 30 * 60;

/** Any vehicle may carry one of these fault codes for good, drawn once (FAULT_CODE_CHANCE). */
const FAULT_CODES: readonly string[] = ['P0300', 'P0171', 'P0420', 'C1234'];
const FAULT_CODE_CHANCE = 0.1;

/** The trouble codes a vehicle's engine reports while the ignition is on. */
export class EngineCodes {
  private constructor(
    private readonly engineCodes: boolean,
    private readonly faultCode: string | undefined,
  ) {}

  /** The codes of a vehicle with these traits; its own fault code, if any, drawn from `random`. */
  static draw(random: Random, traits: VehicleTraits): EngineCodes {
    const faultCode = random.chance(FAULT_CODE_CHANCE) ? random.pick(FAULT_CODES) : undefined;
    return new EngineCodes(traits.engineCodes, faultCode);
  }

  /** The codes the engine reports `elapsedS` after the simulation's start. */
  at(elapsedS: number): string[] | undefined {
    if (this.engineCodes) {
      return elapsedS < ENGINE_CODE_CLEARED_AFTER_S ? [...ENGINE_CODES] : ENGINE_CODES.slice(1);
    }
    return this.faultCode ? [this.faultCode] : undefined;
  }
}
