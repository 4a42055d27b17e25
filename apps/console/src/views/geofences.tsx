import { useEffect, useState } from 'preact/hooks';
import { Api } from '../api';
import { Fleet } from '../fleet';
import { circlePolygon, FleetMap, metresBetween } from '../map';
import { errorText, useLoaded } from './use-fleet';

interface Geofence {
  id: number;
  name: string;
  circle?: { lat: number; lng: number; radiusM: number } | null;
  polygon?: { type: 'Polygon'; coordinates: [number, number][][] } | null;
}

type Shape = Pick<Geofence, 'circle' | 'polygon'>;
type Drawing = { kind: 'circle' | 'polygon'; points: [number, number][] };

const geometryOf = (shape: Shape): GeoJSON.Polygon | null =>
  shape.circle
    ? circlePolygon(shape.circle.lat, shape.circle.lng, shape.circle.radiusM)
    : (shape.polygon ?? null);

/** The shape a finished drawing describes, or null while it is not finished. */
function shapeOf(drawing: Drawing | null): Shape | null {
  if (!drawing) return null;
  if (drawing.kind === 'circle' && drawing.points.length === 2) {
    const [centre, edge] = drawing.points;
    return {
      circle: {
        lat: centre[1],
        lng: centre[0],
        radiusM: Math.max(1, Math.round(metresBetween(centre, edge))),
      },
    };
  }
  if (drawing.kind === 'polygon' && drawing.points.length >= 3) {
    return { polygon: { type: 'Polygon', coordinates: [[...drawing.points, drawing.points[0]]] } };
  }
  return null;
}

/** The company's geofences on the map; created, reshaped, renamed and deleted by drawing. */
export function GeofencesView({ api, fleet, map }: { api: Api; fleet: Fleet; map: FleetMap }) {
  const path = `/v2/api/companies/${fleet.companyId}/geofences`;
  const geofences = useLoaded(() => api.all<Geofence>(path), [path]);
  const [drawing, setDrawing] = useState<Drawing | null>(null);
  const [editing, setEditing] = useState<Geofence | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => map.setVehicles(fleet.vehicleList(), null));
  const [fitted, setFitted] = useState(false);
  useEffect(() => {
    const shapes = (geofences.value ?? []).flatMap((geofence) => geometryOf(geofence)?.coordinates[0] ?? []);
    if (!fitted && shapes.length > 0) {
      map.fit(shapes as [number, number][], 15);
      setFitted(true);
    }
    map.setGeofences(
      (geofences.value ?? []).flatMap((geofence) => {
        const geometry = geometryOf(geofence);
        return geometry
          ? [{ type: 'Feature' as const, geometry, properties: { id: geofence.id, name: geofence.name } }]
          : [];
      }),
    );
  }, [geofences.value]);
  useEffect(() => () => map.setDraft([]), []);
  useEffect(
    () =>
      map.onMapClick((point) => {
        setDrawing((current) => {
          if (!current) return current;
          if (current.kind === 'circle' && current.points.length >= 2) return { ...current, points: [point] };
          return { ...current, points: [...current.points, point] };
        });
      }),
    [map],
  );
  useEffect(() => {
    if (!drawing) return map.setDraft([]);
    const shape = shapeOf(drawing);
    const geometry = shape ? geometryOf(shape) : null;
    map.setDraft([
      ...drawing.points.map((point) => ({
        type: 'Feature' as const,
        geometry: { type: 'Point' as const, coordinates: point },
        properties: {},
      })),
      ...(geometry
        ? [{ type: 'Feature' as const, geometry, properties: {} }]
        : drawing.points.length > 1
          ? [
              {
                type: 'Feature' as const,
                geometry: { type: 'LineString' as const, coordinates: drawing.points },
                properties: {},
              },
            ]
          : []),
    ]);
  }, [drawing]);

  const start = (kind: Drawing['kind']) => {
    setError(null);
    setDrawing({ kind, points: [] });
  };
  const cancel = () => {
    setDrawing(null);
    setEditing(null);
    setName('');
  };
  const shape = shapeOf(drawing);

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (editing) {
        await api.send('PUT', `${path}/${editing.id}`, { name: name.trim(), ...(shape ?? {}) });
      } else {
        if (!shape) throw new Error('Draw the shape on the map first');
        await api.send('POST', path, { name: name.trim(), ...shape });
      }
      cancel();
      geofences.reload();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (geofence: Geofence) => {
    if (!confirm(`Delete the geofence "${geofence.name}"?`)) return;
    try {
      await api.send('DELETE', `${path}/${geofence.id}`);
      cancel();
      geofences.reload();
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  const hint = !drawing
    ? null
    : drawing.kind === 'circle'
      ? drawing.points.length === 0
        ? 'Click the centre on the map.'
        : drawing.points.length === 1
          ? 'Click a point on the edge.'
          : `Radius ${shape?.circle?.radiusM} m. Click again to start over.`
      : `${drawing.points.length} corners${drawing.points.length < 3 ? ': click at least three on the map.' : '.'}`;

  return (
    <div class="geofences">
      <div class="toolbar">
        <button type="button" onClick={() => start('circle')} aria-pressed={drawing?.kind === 'circle'}>
          Draw circle
        </button>
        <button type="button" onClick={() => start('polygon')} aria-pressed={drawing?.kind === 'polygon'}>
          Draw polygon
        </button>
      </div>
      {hint && (
        <p class="muted" role="status" data-testid="draw-hint">
          {hint}
        </p>
      )}
      {(drawing || editing) && (
        <form class="panel" onSubmit={save} aria-label={editing ? 'Edit geofence' : 'New geofence'}>
          <label>
            Name
            <input
              name="geofenceName"
              required
              maxLength={100}
              value={name}
              onInput={(event) => setName((event.target as HTMLInputElement).value)}
            />
          </label>
          <div class="buttons">
            <button type="submit" class="primary" disabled={busy || (!editing && !shape)}>
              Save
            </button>
            {editing && !drawing && (
              <button type="button" onClick={() => start(editing.circle ? 'circle' : 'polygon')}>
                Redraw shape
              </button>
            )}
            <button type="button" onClick={cancel}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {geofences.loading && !geofences.value && (
        <p class="muted" role="status">
          Loading geofences…
        </p>
      )}
      {geofences.error && (
        <p class="error" role="alert">
          {geofences.error}
        </p>
      )}
      <ul class="list" aria-label="Geofences">
        {(geofences.value ?? []).map((geofence) => (
          <li key={geofence.id} data-testid="geofence-item" data-geofence-id={geofence.id}>
            <button
              type="button"
              class="row"
              onClick={() => {
                const geometry = geometryOf(geofence);
                if (geometry) map.fit(geometry.coordinates[0] as [number, number][], 16);
              }}
            >
              <span class="grow">{geofence.name}</span>
              <span class="muted small">
                {geofence.circle ? `circle ${geofence.circle.radiusM} m` : 'polygon'}
              </span>
            </button>
            <button
              type="button"
              class="link"
              onClick={() => {
                setEditing(geofence);
                setName(geofence.name);
                setDrawing(null);
              }}
            >
              Edit
            </button>
            <button type="button" class="link danger" onClick={() => void remove(geofence)}>
              Delete
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
