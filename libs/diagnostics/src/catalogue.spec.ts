import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE_SIZE, catalogueDescription } from './catalogue';
import { TROUBLE_CODE_PATTERN } from './trouble-code';

describe('the DTC catalogue (OBDex, CC0)', () => {
  const raw = JSON.parse(readFileSync(join(__dirname, '..', 'data', 'dtc-catalogue.json'), 'utf8')) as Record<
    string,
    unknown
  >;

  it('holds the 9,533 generic codes of the data set, each a well-formed code with a text', () => {
    expect(CATALOGUE_SIZE).toBe(9533);
    for (const [code, description] of Object.entries(raw)) {
      expect(code).toMatch(TROUBLE_CODE_PATTERN);
      expect(
        typeof description === 'string' && description.trim() === description && description.length > 0,
      ).toBe(true);
    }
  });

  it('covers the standard families only: P0, P2, P34, B0, C0, U0, U3', () => {
    const families = new Set(
      Object.keys(raw).map((code) => (code.startsWith('P3') ? code.slice(0, 3) : code.slice(0, 2))),
    );
    expect([...families].sort()).toEqual(['B0', 'C0', 'P0', 'P2', 'P34', 'U0', 'U3']);
  });

  it.each([
    ['P0300', 'Random/Multiple Cylinder Misfire Detected'],
    ['P0420', 'Catalyst System Efficiency Below Threshold (Bank 1)'],
    ['U0100', 'Lost Communication with ECM/PCM "A"'],
    ['B0001', 'Driver Frontal Stage 1 Deployment Control'],
    ['C0035', 'Left Front Wheel Speed Sensor Circuit Malfunction'],
    // The conversion writes a doubled word once (data/SOURCE.md).
    ['P087C', 'Clutch Position Sensor B Circuit Low'],
    ['P0D17', 'Battery Charging System A High Voltage Interlock Circuit Low'],
  ])('describes %s as %j', (code, description) => {
    expect(catalogueDescription(code)).toBe(description);
  });

  it('keeps no doubled word', () => {
    expect(Object.values(raw).filter((text) => /\b([A-Z][a-z]+) ?\1\b/.test(String(text)))).toEqual([]);
  });

  it('knows no manufacturer code, and only exact upper-case codes', () => {
    expect(catalogueDescription('P1234')).toBeUndefined();
    expect(catalogueDescription('C1234')).toBeUndefined();
    expect(catalogueDescription('p0300')).toBeUndefined();
  });
});
