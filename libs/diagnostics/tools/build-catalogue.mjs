// Builds libs/diagnostics/data/dtc-catalogue.json (code → English title) from a checkout of the
// OBDex data set (CC0). Source, commit and what is changed: libs/diagnostics/data/SOURCE.md.
//
//   git clone https://github.com/foerbsnavi/obdex /tmp/obdex
//   git -C /tmp/obdex checkout cc07a32b103578fa721e50b9cfde7fdb9a4898f0
//   node libs/diagnostics/tools/build-catalogue.mjs /tmp/obdex
//
// The output is deterministic (codes sorted, one per line), so rerunning it on the same commit gives
// the committed file byte for byte.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const TROUBLE_CODE = /^[PCBU][0-3][0-9A-F]{3}$/;
const here = dirname(fileURLToPath(import.meta.url));
const output = join(here, '..', 'data', 'dtc-catalogue.json');

const checkout = process.argv[2];
if (!checkout) {
  console.error('usage: node libs/diagnostics/tools/build-catalogue.mjs <obdex checkout>');
  process.exit(2);
}

// Only CC0 data is taken: refuse a checkout whose data licence says otherwise.
const licence = readFileSync(join(checkout, 'LICENSE-DATA'), 'utf8');
if (!/CC0 1\.0 Universal/.test(licence)) {
  console.error('LICENSE-DATA of the checkout is not CC0 1.0: not converting');
  process.exit(1);
}

/**
 * The English title as the catalogue's description. Two mechanical clean-ups, nothing reworded:
 * whitespace runs become one space, and a capitalised word repeated back to back, with or without a
 * space ("Sensor A Circuit Circuit Low", "Interlock CircuitCircuit High": an artefact of the data set's
 * generator that its own later commits remove), is written once.
 */
const clean = (title) =>
  title
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\b([A-Z][a-z]+) ?\1\b/g, '$1');

const directory = join(checkout, 'data', 'generic');
const files = readdirSync(directory)
  .filter((name) => /^[PCBU]\dxxx_enriched\.yaml$/.test(name))
  .sort();
if (files.length !== 7) {
  console.error(`expected the 7 families (P0, P2, P3, B0, C0, U0, U3), found: ${files.join(', ')}`);
  process.exit(1);
}

const catalogue = new Map();
for (const name of files) {
  for (const entry of parse(readFileSync(join(directory, name), 'utf8'))) {
    const code = entry?.code;
    const title = entry?.title?.en;
    if (typeof code !== 'string' || !TROUBLE_CODE.test(code)) throw new Error(`${name}: bad code ${code}`);
    if (typeof title !== 'string' || !title.trim()) throw new Error(`${name}: ${code} has no English title`);
    if (catalogue.has(code)) throw new Error(`${name}: ${code} appears twice`);
    catalogue.set(code, clean(title));
  }
}

const codes = [...catalogue.keys()].sort();
const lines = codes.map((code) => `  ${JSON.stringify(code)}: ${JSON.stringify(catalogue.get(code))}`);
writeFileSync(output, `{\n${lines.join(',\n')}\n}\n`);
console.log(`${codes.length} codes from ${files.length} files → ${output}`);
