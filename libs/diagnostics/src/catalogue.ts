import catalogue from '../data/dtc-catalogue.json';

/**
 * The generic trouble codes' descriptions, shipped as data: the English titles of the OBDex data set
 * (CC0; source, commit and changes in libs/diagnostics/data/SOURCE.md, rebuilt by
 * libs/diagnostics/tools/build-catalogue.mjs). It holds the standard's codes only (P0, P2, P34, B0,
 * C0, U0, U3): manufacturer codes have no common meaning to ship.
 */
const DESCRIPTIONS: ReadonlyMap<string, string> = new Map(
  Object.entries(catalogue as Record<string, string>),
);

/** How many codes the catalogue describes. */
export const CATALOGUE_SIZE = DESCRIPTIONS.size;

/** The catalogue's description of `code` (exact, upper case), or undefined when it has none. */
export function catalogueDescription(code: string): string | undefined {
  return DESCRIPTIONS.get(code);
}
