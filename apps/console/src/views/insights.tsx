import { Api } from '../api';
import { Fleet } from '../fleet';
import { useVehicleChoice, VehicleSelect } from './vehicle-select';
import { formatTime, useFleet, useLoaded } from './use-fleet';

interface SafetyScore {
  score: number;
  distanceKm: number;
  drivingSeconds: number;
  idleSeconds: number;
  tripCount: number;
  harshBrakingCount: number;
  harshAccelerationCount: number;
  harshCorneringCount: number;
  speedingCount: number;
  speedingPercent: number;
  start: string;
  finish: string;
}

interface BatteryHealth {
  vehicleId: number;
  vehicleName: string;
  batteryType: string;
  status: string;
  restingVoltage: number | null;
  trend: string | null;
  predictedDaysToCritical: number | null;
}

interface EngineCode {
  code: string;
  description: string;
  severity: string;
  isActive: boolean;
  lastSeen: string;
}

const hours = (seconds: number) => `${(seconds / 3600).toFixed(1)} h`;

/** The week's safety score of a vehicle, the fleet's battery health, a vehicle's engine codes. */
export function InsightsView({ api, fleet }: { api: Api; fleet: Fleet }) {
  useFleet(fleet);
  const { vehicles, vehicleId, setVehicleId } = useVehicleChoice(fleet);
  const score = useLoaded(
    () =>
      vehicleId === null
        ? Promise.resolve(null)
        : api.get<SafetyScore>(`/v2/api/safety-score/${vehicleId}`, { intervalType: 4 }),
    [vehicleId],
  );
  const codes = useLoaded(
    () =>
      vehicleId === null
        ? Promise.resolve([])
        : api.all<EngineCode>(`/v2/api/vehicles/${vehicleId}/engine-codes`, {}, 100),
    [vehicleId],
  );
  const battery = useLoaded(
    () => api.get<{ items: BatteryHealth[] }>('/v2/api/battery-health', { pageNumber: 1, pageSize: 100 }),
    [fleet.companyId],
  );

  const figures: [string, string][] = score.value
    ? [
        ['Distance', `${score.value.distanceKm.toFixed(1)} km`],
        ['Trips', String(score.value.tripCount)],
        ['Driving', hours(score.value.drivingSeconds)],
        ['Idling', hours(score.value.idleSeconds)],
        ['Harsh braking', String(score.value.harshBrakingCount)],
        ['Harsh acceleration', String(score.value.harshAccelerationCount)],
        ['Harsh cornering', String(score.value.harshCorneringCount)],
        ['Speeding', `${score.value.speedingCount} (${score.value.speedingPercent.toFixed(1)} % of driving)`],
      ]
    : [];

  return (
    <div class="insights">
      <VehicleSelect vehicles={vehicles} value={vehicleId} onChange={setVehicleId} />
      <section class="panel" aria-labelledby="score-title">
        <h2 id="score-title">Safety score, this week</h2>
        {score.loading && (
          <p class="muted" role="status">
            Loading…
          </p>
        )}
        {score.error && (
          <p class="error" role="alert">
            {score.error}
          </p>
        )}
        {score.value && (
          <>
            <p class="score" data-testid="safety-score">
              {score.value.score}
            </p>
            <dl class="facts">
              {figures.map(([term, value]) => (
                <div key={term}>
                  <dt>{term}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          </>
        )}
      </section>
      <section class="panel" aria-labelledby="codes-title">
        <h2 id="codes-title">Engine codes</h2>
        {codes.loading && (
          <p class="muted" role="status">
            Loading…
          </p>
        )}
        {codes.error && (
          <p class="error" role="alert">
            {codes.error}
          </p>
        )}
        {codes.value && codes.value.length === 0 && <p class="muted">No engine codes.</p>}
        <ul class="list">
          {(codes.value ?? []).map((code) => (
            <li key={code.code} class="column">
              <span>
                <strong>{code.code}</strong> · {code.severity} · {code.isActive ? 'active' : 'cleared'}
              </span>
              <span class="muted small">
                {code.description} · last seen {formatTime(code.lastSeen, fleet.timeZone)}
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section class="panel" aria-labelledby="battery-title">
        <h2 id="battery-title">Battery health</h2>
        {battery.loading && (
          <p class="muted" role="status">
            Loading…
          </p>
        )}
        {battery.error && (
          <p class="error" role="alert">
            {battery.error}
          </p>
        )}
        <table>
          <caption class="visually-hidden">Battery health of the fleet</caption>
          <thead>
            <tr>
              <th scope="col">Vehicle</th>
              <th scope="col">Status</th>
              <th scope="col">Resting V</th>
              <th scope="col">Trend</th>
              <th scope="col">Days to critical</th>
            </tr>
          </thead>
          <tbody>
            {(battery.value?.items ?? []).map((row) => (
              <tr key={row.vehicleId}>
                <td>{row.vehicleName}</td>
                <td>{row.status}</td>
                <td>{row.restingVoltage ?? '—'}</td>
                <td>{row.trend ?? '—'}</td>
                <td>{row.predictedDaysToCritical ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
