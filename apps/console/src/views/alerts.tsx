import { useEffect, useMemo, useState } from 'preact/hooks';
import { Api } from '../api';
import { Fleet } from '../fleet';
import { FleetMap } from '../map';
import { AlertRecord } from '../stream';
import { byName } from './vehicles';
import { errorText, formatTime, useFleet } from './use-fleet';

/** The alert records: live from the stream, filtered by type and vehicle, marked read or unread. */
export function AlertsView({ api, fleet, map }: { api: Api; fleet: Fleet; map: FleetMap }) {
  useFleet(fleet);
  const [type, setType] = useState('');
  const [vehicle, setVehicle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [focused, setFocused] = useState<number | null>(null);

  useEffect(() => map.setVehicles(fleet.vehicleList(), null));
  useEffect(() => () => map.setAlertPin(null), []);

  const types = useMemo(
    () => [...new Map(fleet.alerts.map((alert) => [alert.alertTypeId, alert.alertType])).entries()].sort(),
    [fleet.alerts],
  );
  const vehicles = useMemo(
    () =>
      [...new Map(fleet.alerts.map((alert) => [alert.vehicleId, alert.vehicleName])).entries()].sort((a, b) =>
        byName.compare(a[1], b[1]),
      ),
    [fleet.alerts],
  );
  const shown = fleet.alerts.filter(
    (alert) =>
      (!type || alert.alertTypeId === Number(type)) && (!vehicle || alert.vehicleId === Number(vehicle)),
  );
  const unread = fleet.alerts.filter((alert) => !alert.isRead).length;

  const setRead = async (alert: AlertRecord, isRead: boolean) => {
    setError(null);
    try {
      const date = alert.utcTime.slice(0, 10);
      const record = await api.send<AlertRecord>(
        'PUT',
        `/v2/api/alerts/${alert.id}/${date}/update-read-status`,
        undefined,
        { isRead },
      );
      fleet.updateAlert({ ...alert, isRead: record.isRead });
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  const allRead = async () => {
    setError(null);
    try {
      await api.send('PUT', `/v2/api/companies/${fleet.companyId}/set-all-alerts-read`);
      fleet.markAllRead();
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  const locate = (alert: AlertRecord) => {
    setFocused(alert.id);
    map.setAlertPin([alert.lng, alert.lat]);
    map.flyTo([alert.lng, alert.lat], 14);
  };

  return (
    <div class="alerts">
      <div class="toolbar">
        <label>
          Type
          <select value={type} onChange={(event) => setType((event.target as HTMLSelectElement).value)}>
            <option value="">all</option>
            {types.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Vehicle
          <select value={vehicle} onChange={(event) => setVehicle((event.target as HTMLSelectElement).value)}>
            <option value="">all</option>
            {vehicles.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void allRead()} disabled={unread === 0}>
          Mark all read
        </button>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <p class="muted" role="status">
        {fleet.loading ? 'Loading alerts…' : `${shown.length} alerts, ${unread} unread`}
      </p>
      <ul class="list" aria-label="Alerts">
        {shown.slice(0, 300).map((alert) => (
          <li
            key={alert.id}
            class={`alert ${alert.isRead ? 'read' : 'unread'} ${focused === alert.id ? 'selected' : ''}`}
            data-testid="alert-item"
            data-alert-id={alert.id}
            data-read={String(alert.isRead)}
          >
            <button
              type="button"
              class="row column"
              onClick={() => locate(alert)}
              aria-label={`Show ${alert.alertType} of ${alert.vehicleName} on the map`}
            >
              <span>
                <strong>{alert.alertType}</strong> · {alert.vehicleName}
              </span>
              <span class="muted small">
                {formatTime(alert.utcTime, fleet.timeZone)} · {alert.description}
              </span>
              {alert.address && <span class="muted small">{alert.address}</span>}
            </button>
            <button type="button" class="link" onClick={() => void setRead(alert, !alert.isRead)}>
              {alert.isRead ? 'Mark unread' : 'Mark read'}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
