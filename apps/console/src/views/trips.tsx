import { useEffect, useRef, useState } from 'preact/hooks';
import { Api } from '../api';
import { Fleet } from '../fleet';
import { FleetMap } from '../map';
import { useVehicleChoice, VehicleSelect } from './vehicle-select';
import { errorText, formatTime, useFleet } from './use-fleet';

interface TripPoint {
  lat: number;
  lng: number;
  utcTime: string;
}

interface Trip {
  id: number;
  distance: number | null;
  duration: string;
  startAddress: string;
  endAddress: string;
  startTime: string;
  endTime: string;
  points: TripPoint[];
}

const SPEEDS = [1, 10, 60, 600];
const today = () => new Date().toISOString().slice(0, 10);

/** Where the replay marker is `at` ms into the trip: between the two recorded points around it. */
export function replayPosition(points: readonly TripPoint[], at: number): [number, number] {
  const start = Date.parse(points[0].utcTime);
  const time = start + at;
  for (let index = 1; index < points.length; index++) {
    const before = points[index - 1];
    const after = points[index];
    const t1 = Date.parse(after.utcTime);
    if (time <= t1) {
      const t0 = Date.parse(before.utcTime);
      const share = t1 === t0 ? 1 : (time - t0) / (t1 - t0);
      return [before.lng + (after.lng - before.lng) * share, before.lat + (after.lat - before.lat) * share];
    }
  }
  const last = points[points.length - 1];
  return [last.lng, last.lat];
}

/** A vehicle and a day → its trips (the replay route); a trip drawn and replayed in proportion to time. */
export function TripsView({ api, fleet, map }: { api: Api; fleet: Fleet; map: FleetMap }) {
  useFleet(fleet);
  const { vehicles, vehicleId, setVehicleId } = useVehicleChoice(fleet);
  const [day, setDay] = useState(today());
  const [trips, setTrips] = useState<Trip[] | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [trip, setTrip] = useState<Trip | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(60);
  const [elapsed, setElapsed] = useState(0);
  const frame = useRef<number>(0);

  useEffect(() => map.setVehicles(fleet.vehicleList(), null));
  useEffect(
    () => () => {
      map.setTrip(null);
      cancelAnimationFrame(frame.current!);
    },
    [],
  );

  const load = async (event: Event) => {
    event.preventDefault();
    if (vehicleId === null) return;
    setLoading(true);
    setError(null);
    setTrip(null);
    map.setTrip(null);
    try {
      const from = new Date(`${day}T00:00:00`);
      const to = new Date(from.getTime() + 86_400_000);
      setTrips(
        await api.all<Trip>(
          `/v2/api/replay/${vehicleId}`,
          { from: from.toISOString(), to: to.toISOString() },
          100,
        ),
      );
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setLoading(false);
    }
  };

  const show = (chosen: Trip) => {
    setTrip(chosen);
    setPlaying(false);
    setElapsed(0);
    const path = chosen.points.map((point) => [point.lng, point.lat] as [number, number]);
    map.setTrip(path);
    map.fit(path, 16);
  };

  const duration =
    trip && trip.points.length > 1
      ? Date.parse(trip.points[trip.points.length - 1].utcTime) - Date.parse(trip.points[0].utcTime)
      : 0;

  useEffect(() => {
    if (!trip || trip.points.length === 0) return;
    map.setReplayMarker(replayPosition(trip.points, elapsed));
  }, [trip, elapsed]);

  useEffect(() => {
    if (!playing || !trip) return;
    let last = performance.now();
    const step = (now: number) => {
      const delta = (now - last) * speed;
      last = now;
      setElapsed((previous) => {
        const next = Math.min(duration, previous + delta);
        if (next >= duration) setPlaying(false);
        return next;
      });
      frame.current = requestAnimationFrame(step);
    };
    frame.current = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame.current!);
  }, [playing, speed, trip]);

  return (
    <div class="trips">
      <form class="toolbar" onSubmit={load}>
        <VehicleSelect vehicles={vehicles} value={vehicleId} onChange={setVehicleId} />
        <label>
          Day
          <input
            type="date"
            name="day"
            value={day}
            max={today()}
            onInput={(event) => setDay((event.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" class="primary" disabled={loading || vehicleId === null}>
          Show trips
        </button>
      </form>
      {loading && (
        <p class="muted" role="status">
          Loading trips…
        </p>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {trips && !loading && (
        <p class="muted">{trips.length === 0 ? 'No trips that day.' : `${trips.length} trips`}</p>
      )}
      {trip && (
        <div class="replay" role="group" aria-label="Replay">
          <button
            type="button"
            class="primary"
            onClick={() => {
              if (elapsed >= duration) setElapsed(0);
              setPlaying(!playing);
            }}
          >
            {playing ? 'Pause' : 'Play'}
          </button>
          <label>
            Speed
            <select
              value={speed}
              onChange={(event) => setSpeed(Number((event.target as HTMLSelectElement).value))}
            >
              {SPEEDS.map((value) => (
                <option key={value} value={value}>
                  {value}×
                </option>
              ))}
            </select>
          </label>
          <input
            type="range"
            aria-label="Replay position"
            min={0}
            max={duration}
            value={elapsed}
            onInput={(event) => setElapsed(Number((event.target as HTMLInputElement).value))}
          />
          <span class="muted small" data-testid="replay-clock">
            {formatTime(
              new Date(Date.parse(trip.points[0]?.utcTime ?? '') + elapsed).toISOString(),
              fleet.timeZone,
            )}
          </span>
        </div>
      )}
      <ul class="list" aria-label="Trips">
        {(trips ?? []).map((item) => (
          <li key={item.id}>
            <button
              type="button"
              class={`row column ${trip?.id === item.id ? 'selected' : ''}`}
              data-testid="trip-item"
              onClick={() => show(item)}
            >
              <span>
                {formatTime(item.startTime, fleet.timeZone)} → {formatTime(item.endTime, fleet.timeZone)}
              </span>
              <span class="muted small">
                {item.distance === null ? '' : `${(item.distance / 1000).toFixed(1)} km · `}
                {item.points.length} points · {item.startAddress || '—'} → {item.endAddress || '—'}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
