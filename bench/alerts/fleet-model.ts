/**
 * The bench's fleet: 1,000 vehicles in 10 companies under one holding, 10,000 geofences (1,000 per
 * company, circles and polygons around the company's city), configurations of every catalog type,
 * and a driving pattern whose readings cross every rule's threshold now and then.
 */
import {
  AlertSettings,
  alertTypeCatalog,
  AlertTypes,
  PositionReportedV1,
  settingsWithDefaults,
} from '@fleet/contracts';
import { GeofenceShape } from '@fleet/geo';

export const HOLDING = 1;
export const COMPANIES = Array.from({ length: 10 }, (_, index) => index + 2);
export const VEHICLES = 1_000;
export const GEOFENCES_PER_COMPANY = 1_000;
/** Geofence configurations (entry and exit each) per company, each watching another geofence. */
const GEOFENCE_CONFIGURATIONS = 5;

export const imeiOf = (vehicleId: number) => `35${String(vehicleId).padStart(13, '0')}`;
export const companyOf = (vehicleId: number) => COMPANIES[(vehicleId - 1) % COMPANIES.length];
/** Every third vehicle carries a tag one configuration per company covers. */
export const tagsOf = (vehicleId: number) => (vehicleId % 3 === 0 ? ['refrigerated'] : ['dry']);

/** A deterministic generator (mulberry32), so that runs place the same geofences. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Each company's city: where its geofences are drawn and its vehicles drive. */
export function centreOf(companyId: number): { lat: number; lng: number } {
  const index = companyId - COMPANIES[0];
  return { lat: 48.5 + (index % 5) * 0.8, lng: 7.5 + Math.floor(index / 5) * 3 + (index % 5) * 0.5 };
}

const METRES_PER_DEGREE = 111_320;

export function geofencesOf(companyId: number): { name: string; shape: GeofenceShape }[] {
  const random = seededRandom(companyId);
  const centre = centreOf(companyId);
  return Array.from({ length: GEOFENCES_PER_COMPANY }, (_, index) => {
    const lat = centre.lat + (random() - 0.5) * 0.3;
    const lng = centre.lng + (random() - 0.5) * 0.45;
    const radiusM = 100 + random() * 400;
    if (index % 2 === 0)
      return { name: `Site ${companyId}-${index}`, shape: { kind: 'circle', lat, lng, radiusM } };
    const vertices = 6 + Math.floor(random() * 7);
    const ring = Array.from({ length: vertices }, (_, vertex) => {
      const angle = (2 * Math.PI * vertex) / vertices;
      return [
        lng + (Math.cos(angle) * radiusM) / (METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180)),
        lat + (Math.sin(angle) * radiusM) / METRES_PER_DEGREE,
      ];
    });
    return {
      name: `Zone ${companyId}-${index}`,
      shape: { kind: 'polygon', polygon: { type: 'Polygon', coordinates: [[...ring, ring[0]]] } },
    };
  });
}

export interface BenchConfiguration {
  name: string;
  alertTypeId: number;
  vehicleIds: number[];
  tags: string[];
  settings: AlertSettings;
}

/**
 * A company's configurations: every catalog type with its defaults covering the whole fleet, several
 * geofence entries and exits, and one by tag and one by listed vehicles.
 */
export function configurationsOf(companyId: number, geofenceIds: readonly number[]): BenchConfiguration[] {
  const whole = (alertTypeId: number, settings: AlertSettings = {}): BenchConfiguration => ({
    name: `Type ${alertTypeId}`,
    alertTypeId,
    vehicleIds: [],
    tags: [],
    settings: settingsWithDefaults(alertTypeId, settings),
  });
  const configurations: BenchConfiguration[] = [];
  for (const entry of alertTypeCatalog) {
    if (entry.id === AlertTypes.geofenceEnter.id || entry.id === AlertTypes.geofenceExit.id) {
      for (let index = 0; index < GEOFENCE_CONFIGURATIONS; index++)
        configurations.push(whole(entry.id, { geofenceId: geofenceIds[(index * 97) % geofenceIds.length] }));
    } else {
      configurations.push(whole(entry.id));
    }
  }
  const vehicles = Array.from({ length: VEHICLES }, (_, index) => index + 1).filter(
    (vehicleId) => companyOf(vehicleId) === companyId,
  );
  configurations.push({ ...whole(AlertTypes.overspeed.id, { maxSpeedKmh: 90 }), tags: ['refrigerated'] });
  configurations.push({
    ...whole(AlertTypes.overspeed.id, { maxSpeedKmh: 120 }),
    vehicleIds: vehicles.slice(0, 10),
  });
  return configurations;
}

/** Seconds of the driving pattern, repeated. */
const CYCLE = 600;

/**
 * Fix number `fix` of a vehicle, one second apart: parked (ignition off, some charging), idling,
 * driving around its city with an overspeed episode, a harsh braking, a low-voltage dip and an
 * engine running hot; the route passes the company's geofences.
 */
export function positionOf(vehicleId: number, fix: number, fixTime: number): PositionReportedV1 {
  const phase = fix % CYCLE;
  const centre = centreOf(companyOf(vehicleId));
  const angle = (fix / CYCLE) * 2 * Math.PI + vehicleId;
  const radius = 0.04 + (vehicleId % 7) * 0.01;
  const parked = phase < 20;
  const idling = phase >= 20 && phase < 40;
  const stopped = parked || idling || (phase >= 300 && phase < 320);
  let speedKmh = stopped ? 0 : 60 + 30 * Math.sin(phase / 15);
  if (phase >= 200 && phase < 230) speedKmh = 125;
  if (phase === 250) speedKmh = Math.max(0, speedKmh - 35);
  return {
    eventId: globalThis.crypto.randomUUID(),
    vehicleId,
    imei: imeiOf(vehicleId),
    fixTime: new Date(fixTime).toISOString(),
    receivedAt: new Date().toISOString(),
    lat: centre.lat + radius * Math.sin(angle),
    lng: centre.lng + radius * 1.5 * Math.cos(angle),
    speedKmh: Math.round(speedKmh * 10) / 10,
    course: Math.round((angle * 180) / Math.PI + 90) % 360,
    ignition: !parked,
    charging: parked && vehicleId % 5 === 0,
    powerV: phase >= 320 && phase < 330 ? 0.2 : phase >= 330 && phase < 340 ? 11.2 : 12.6,
    rpm: stopped ? (parked ? 0 : 800) : Math.round(speedKmh * 40),
    coolantTempC: phase >= 400 && phase < 410 ? 112 : 90,
    satellites: 9,
  };
}
