import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogueDescription } from './catalogue';
import { SEVERITY_RULES, severityOf, TroubleCodeSeverity } from './severity';
import { decodeTroubleCode } from './trouble-code';

const catalogueCodes = () =>
  Object.keys(JSON.parse(readFileSync(join(__dirname, '..', 'data', 'dtc-catalogue.json'), 'utf8')));

const severity = (code: string): TroubleCodeSeverity =>
  severityOf({ decoded: decodeTroubleCode(code)!, description: catalogueDescription(code) }).severity;

describe('trouble code severity', () => {
  it.each([
    // Stop soon: damage or danger when driven on.
    ['P0217', 'Critical'],
    ['P0524', 'Critical'],
    ['P0093', 'Critical'],
    ['C0128', 'Critical'],
    ['P0AA6', 'Critical'],
    // Misfire P0300–P0312 and other misfire detections.
    ...['P0300', 'P0301', 'P0306', 'P0312', 'P0316'].map((code) => [code, 'High']),
    ['P0A7E', 'High'],
    ['P0087', 'High'],
    ['P0335', 'High'],
    ['B0001', 'High'],
    ['B0200', 'High'],
    ['U0100', 'High'],
    ['U0121', 'High'],
    ['C0035', 'High'],
    ['C0077', 'High'],
    ['P0A0A', 'High'],
    // Emissions and efficiency.
    ['P0420', 'Medium'],
    ['P0430', 'Medium'],
    ['P2002', 'Medium'],
    ['P0455', 'Medium'],
    ['P0171', 'Medium'],
    ['P0700', 'Medium'],
    ['U0229', 'Medium'],
    ['C0010', 'Medium'],
    // Small EVAP leaks, the fuel cap, comfort and tyre sensors.
    ['P0442', 'Low'],
    ['P0456', 'Low'],
    ['P0457', 'Low'],
    ['P0440', 'Low'],
    ['B0228', 'Low'],
    ['B0040', 'Low'],
    ['C0900', 'Low'],
  ] as [string, TroubleCodeSeverity][])('%s is %s', (code, expected) => {
    expect(severity(code)).toBe(expected);
  });

  it.each([
    ['P1234', 'Medium'],
    ['P1300', 'Medium'],
    ['C1234', 'Medium'],
    ['U1000', 'Medium'],
    ['B1200', 'Low'],
    // A generic body code the catalogue lacks, outside the restraints group.
    ['B0F00', 'Low'],
  ] as [string, TroubleCodeSeverity][])(
    'manufacturer or uncatalogued %s falls back on its system: %s',
    (code, expected) => {
      expect(catalogueDescription(code)).toBeUndefined();
      expect(severity(code)).toBe(expected);
    },
  );

  it('applies the restraint group to an uncatalogued B00 code', () => {
    const decoded = decodeTroubleCode('B0001')!;
    expect(severityOf({ decoded }).severity).toBe('High');
  });

  it('spreads the catalogue as docs/engine-codes.md says', () => {
    const counts: Record<string, number> = {};
    for (const code of catalogueCodes()) counts[severity(code)] = (counts[severity(code)] ?? 0) + 1;
    expect(counts).toEqual({ Critical: 11, High: 793, Medium: 8444, Low: 285 });
  });

  it('ends with a rule that takes every code, so each gets a level', () => {
    const last = SEVERITY_RULES[SEVERITY_RULES.length - 1];
    expect(last.applies({ decoded: decodeTroubleCode('U3FFF')! })).toBe(true);
    expect(SEVERITY_RULES.every((rule) => rule.reason.length > 10)).toBe(true);
  });
});
