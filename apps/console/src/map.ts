import {
  GeoJSONSource,
  LngLatBounds,
  Map as MapLibreMap,
  NavigationControl,
  StyleSpecification,
} from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import type { VehiclePosition } from './stream';

export type VehicleState = 'moving' | 'idling' | 'parked' | 'offline';

/** Moving above walking pace; idling with the ignition on; parked with it off; offline past the window. */
export function vehicleState(vehicle: VehiclePosition): VehicleState {
  if (!vehicle.isOnline) return 'offline';
  if ((vehicle.speed ?? 0) > 3) return 'moving';
  return vehicle.ignition ? 'idling' : 'parked';
}

export const STATE_COLOURS: Record<VehicleState, string> = {
  moving: '#1a7f37',
  idling: '#bf8700',
  parked: '#0969da',
  offline: '#6e7781',
};

type Feature = GeoJSON.Feature<GeoJSON.Geometry, Record<string, unknown>>;
const collection = (features: Feature[]): GeoJSON.FeatureCollection => ({
  type: 'FeatureCollection',
  features,
});
const EMPTY = collection([]);

/** The offline style: Natural Earth land and borders shipped with the console, no tiles, no glyphs. */
function offlineStyle(): StyleSpecification {
  return {
    version: 8,
    sources: {},
    layers: [{ id: 'water', type: 'background', paint: { 'background-color': '#cfe3f0' } }],
  };
}

/** A vehicle marker: a disc in the state's colour with a heading arrow (rotated by the layer). */
function vehicleIcon(colour: string): ImageData {
  const size = 32;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  const context = canvas.getContext('2d')!;
  context.fillStyle = colour;
  context.strokeStyle = '#ffffff';
  context.lineWidth = 2;
  context.beginPath();
  context.arc(16, 17, 10, 0, Math.PI * 2);
  context.fill();
  context.stroke();
  context.beginPath();
  context.moveTo(16, 1);
  context.lineTo(23, 10);
  context.lineTo(9, 10);
  context.closePath();
  context.fill();
  return context.getImageData(0, 0, size, size);
}

/** A circle as a polygon of `steps` points (the geofence routes store circles as centre and radius). */
export function circlePolygon(lat: number, lng: number, radiusM: number, steps = 64): GeoJSON.Polygon {
  const ring: [number, number][] = [];
  const latRadius = radiusM / 111_320;
  const lngRadius = radiusM / (111_320 * Math.cos((lat * Math.PI) / 180));
  for (let step = 0; step <= steps; step++) {
    const angle = (step / steps) * Math.PI * 2;
    ring.push([lng + lngRadius * Math.sin(angle), lat + latRadius * Math.cos(angle)]);
  }
  return { type: 'Polygon', coordinates: [ring] };
}

/** Great-circle distance in metres. */
export function metresBetween(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (b[1] - a[1]) * rad;
  const dLng = (b[0] - a[0]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

/**
 * The console's map: the basemap (offline or CONSOLE_MAP_STYLE_URL), and on top the vehicles (clustered
 * when dense), a trip with its ends and the replay marker, the geofences, a drawing in progress and the
 * place of an alert. Every layer is GeoJSON, so 5,000 moving vehicles are one source update.
 */
export class FleetMap {
  readonly map: MapLibreMap;
  private readonly ready: Promise<void>;
  private vehicleFeatures: Feature[] = [];
  private vehiclesDirty = false;

  constructor(
    readonly container: HTMLElement,
    styleUrl: string | null,
  ) {
    this.map = new MapLibreMap({
      container,
      style: styleUrl ?? offlineStyle(),
      center: [10, 50],
      zoom: 3,
      attributionControl: styleUrl ? {} : { customAttribution: 'Natural Earth' },
    });
    this.map.addControl(new NavigationControl({ showCompass: true }), 'top-right');
    this.ready = new Promise((resolve) =>
      this.map.once('load', () => void this.addLayers(styleUrl).then(resolve)),
    );
  }

  whenReady(): Promise<void> {
    return this.ready;
  }

  private async addLayers(styleUrl: string | null): Promise<void> {
    const map = this.map;
    if (!styleUrl) {
      const basemap = (await (await fetch('basemap.json')).json()) as {
        land: GeoJSON.FeatureCollection;
        borders: GeoJSON.MultiLineString;
      };
      map.addSource('land', { type: 'geojson', data: basemap.land });
      map.addSource('borders', { type: 'geojson', data: basemap.borders });
      map.addLayer({ id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': '#f3f1ea' } });
      map.addLayer({
        id: 'borders',
        type: 'line',
        source: 'borders',
        paint: { 'line-color': '#b8b2a6', 'line-width': 0.8 },
      });
    }
    for (const [state, colour] of Object.entries(STATE_COLOURS)) {
      map.addImage(`vehicle-${state}`, vehicleIcon(colour), { pixelRatio: 2 });
    }
    map.addSource('geofences', { type: 'geojson', data: EMPTY });
    map.addLayer({
      id: 'geofences-fill',
      type: 'fill',
      source: 'geofences',
      paint: { 'fill-color': '#8250df', 'fill-opacity': 0.15 },
    });
    map.addLayer({
      id: 'geofences-line',
      type: 'line',
      source: 'geofences',
      paint: { 'line-color': '#8250df', 'line-width': 2 },
    });
    map.addSource('draft', { type: 'geojson', data: EMPTY });
    map.addLayer({
      id: 'draft-fill',
      type: 'fill',
      source: 'draft',
      filter: ['==', ['geometry-type'], 'Polygon'],
      paint: { 'fill-color': '#cf222e', 'fill-opacity': 0.15 },
    });
    map.addLayer({
      id: 'draft-line',
      type: 'line',
      source: 'draft',
      paint: { 'line-color': '#cf222e', 'line-width': 2, 'line-dasharray': [2, 1] },
    });
    map.addLayer({
      id: 'draft-points',
      type: 'circle',
      source: 'draft',
      filter: ['==', ['geometry-type'], 'Point'],
      paint: { 'circle-radius': 4, 'circle-color': '#cf222e' },
    });
    map.addSource('trip', { type: 'geojson', data: EMPTY });
    map.addLayer({
      id: 'trip-line',
      type: 'line',
      source: 'trip',
      filter: ['==', ['geometry-type'], 'LineString'],
      paint: { 'line-color': '#d1242f', 'line-width': 4, 'line-opacity': 0.8 },
    });
    map.addLayer({
      id: 'trip-ends',
      type: 'circle',
      source: 'trip',
      filter: ['==', ['geometry-type'], 'Point'],
      paint: {
        'circle-radius': 7,
        'circle-color': ['match', ['get', 'end'], 'start', '#1a7f37', 'replay', '#0969da', '#d1242f'],
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 2,
      },
    });
    map.addSource('alert-pin', { type: 'geojson', data: EMPTY });
    map.addLayer({
      id: 'alert-pin',
      type: 'circle',
      source: 'alert-pin',
      paint: {
        'circle-radius': 10,
        'circle-color': '#cf222e',
        'circle-opacity': 0.5,
        'circle-stroke-color': '#cf222e',
        'circle-stroke-width': 2,
      },
    });
    map.addSource('vehicles', {
      type: 'geojson',
      data: EMPTY,
      cluster: true,
      clusterMaxZoom: 11,
      clusterRadius: 40,
    });
    map.addLayer({
      id: 'vehicle-clusters',
      type: 'circle',
      source: 'vehicles',
      filter: ['has', 'point_count'],
      paint: {
        'circle-color': '#57606a',
        'circle-opacity': 0.75,
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 2,
        'circle-radius': ['step', ['get', 'point_count'], 12, 10, 16, 100, 22, 1000, 28],
      },
    });
    map.addLayer({
      id: 'vehicles',
      type: 'symbol',
      source: 'vehicles',
      filter: ['!', ['has', 'point_count']],
      layout: {
        'icon-image': ['concat', 'vehicle-', ['get', 'state']],
        'icon-rotate': ['get', 'course'],
        'icon-rotation-alignment': 'map',
        'icon-allow-overlap': true,
        'icon-ignore-placement': true,
        'icon-size': ['case', ['get', 'selected'], 1.5, 1],
      },
    });
    map.on('click', 'vehicle-clusters', (event) => {
      const feature = event.features?.[0];
      if (!feature) return;
      const source = map.getSource<GeoJSONSource>('vehicles')!;
      void source
        .getClusterExpansionZoom(feature.properties.cluster_id as number)
        .then((zoom) =>
          map.easeTo({ center: (feature.geometry as GeoJSON.Point).coordinates as [number, number], zoom }),
        );
    });
    map.on('click', 'vehicles', (event) => {
      const id = event.features?.[0]?.properties?.id;
      if (typeof id === 'number') this.vehicleClick?.(id);
    });
    map.on('click', (event) => this.mapClick?.([event.lngLat.lng, event.lngLat.lat]));
    for (const layer of ['vehicles', 'vehicle-clusters']) {
      map.on('mouseenter', layer, () => (map.getCanvas().style.cursor = 'pointer'));
      map.on('mouseleave', layer, () => (map.getCanvas().style.cursor = ''));
    }
  }

  /** Replaces the vehicles drawn; applied at most once per animation frame. */
  setVehicles(vehicles: readonly VehiclePosition[], selectedId: number | null): void {
    this.vehicleFeatures = vehicles.map((vehicle) => ({
      type: 'Feature',
      id: vehicle.deviceId,
      geometry: { type: 'Point', coordinates: [vehicle.lng, vehicle.lat] },
      properties: {
        id: vehicle.deviceId,
        state: vehicleState(vehicle),
        course: vehicle.course ?? 0,
        selected: vehicle.deviceId === selectedId,
      },
    }));
    this.container.dataset.vehicleCount = String(this.vehicleFeatures.length);
    if (this.vehiclesDirty) return;
    this.vehiclesDirty = true;
    requestAnimationFrame(() => {
      this.vehiclesDirty = false;
      this.show('vehicles', this.vehicleFeatures);
    });
  }

  /** Where the vehicle's marker is drawn ([lng, lat]), for the browser tests and diagnostics. */
  vehiclePoint(vehicleId: number): [number, number] | null {
    const feature = this.vehicleFeatures.find((candidate) => candidate.id === vehicleId);
    return feature ? ((feature.geometry as GeoJSON.Point).coordinates as [number, number]) : null;
  }

  /** How many vehicle markers and clusters the map has drawn on screen (for the console bench). */
  renderedVehicles(): number {
    if (!this.map.getLayer('vehicles')) return 0;
    return this.map.queryRenderedFeatures({ layers: ['vehicles', 'vehicle-clusters'] }).length;
  }

  /** The one handler of clicks on a vehicle; returns a function that removes it. */
  onVehicleClick(handler: (vehicleId: number) => void): () => void {
    this.vehicleClick = handler;
    return () => {
      if (this.vehicleClick === handler) this.vehicleClick = undefined;
    };
  }
  private vehicleClick?: (vehicleId: number) => void;

  /** The one handler of clicks on the map (drawing); returns a function that removes it. */
  onMapClick(handler: (point: [number, number]) => void): () => void {
    this.mapClick = handler;
    return () => {
      if (this.mapClick === handler) this.mapClick = undefined;
    };
  }
  private mapClick?: (point: [number, number]) => void;

  setGeofences(features: Feature[]): void {
    this.container.dataset.geofenceCount = String(features.length);
    this.show('geofences', features);
  }

  setDraft(features: Feature[]): void {
    this.show('draft', features);
  }

  /** A trip's path with its start and end, or nothing. */
  setTrip(points: [number, number][] | null): void {
    this.container.dataset.tripPoints = String(points?.length ?? 0);
    const features: Feature[] = points?.length
      ? [
          { type: 'Feature', geometry: { type: 'LineString', coordinates: points }, properties: {} },
          {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: points[0] },
            properties: { end: 'start' },
          },
          {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: points[points.length - 1] },
            properties: { end: 'end' },
          },
        ]
      : [];
    this.tripFeatures = features;
    this.show('trip', features);
  }
  private tripFeatures: Feature[] = [];

  /** The replay marker along the trip drawn. */
  setReplayMarker(point: [number, number] | null): void {
    const features = point
      ? [
          ...this.tripFeatures,
          {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: point },
            properties: { end: 'replay' },
          } as Feature,
        ]
      : this.tripFeatures;
    this.show('trip', features);
  }

  setAlertPin(point: [number, number] | null): void {
    const features: Feature[] = point
      ? [{ type: 'Feature', geometry: { type: 'Point', coordinates: point }, properties: {} }]
      : [];
    this.show('alert-pin', features);
  }

  /** Replaces what a GeoJSON source of the map draws, once the map is ready. */
  private show(source: string, features: Feature[]): void {
    void this.ready.then(() => this.map.getSource<GeoJSONSource>(source)?.setData(collection(features)));
  }

  /** Fits the map to points (a fleet, a trip, a geofence). */
  fit(points: [number, number][], maxZoom = 14): void {
    if (points.length === 0) return;
    const bounds = new LngLatBounds(points[0], points[0]);
    for (const point of points) bounds.extend(point);
    this.map.fitBounds(bounds, { padding: 60, maxZoom, duration: 0 });
  }

  flyTo(point: [number, number], zoom = 15): void {
    this.map.easeTo({ center: point, zoom: Math.max(this.map.getZoom(), zoom) });
  }
}
