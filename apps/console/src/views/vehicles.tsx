import { useEffect, useMemo, useState } from 'preact/hooks';
import { Api } from '../api';
import { Fleet } from '../fleet';
import { FleetMap, STATE_COLOURS, vehicleState, VehicleState } from '../map';
import { CommandRecord, FINISHED } from '../commands';
import { VehiclePosition } from '../stream';
import { errorText, formatTime, useFleet } from './use-fleet';

const STATE_ORDER: Record<VehicleState, number> = { moving: 0, idling: 1, parked: 2, offline: 3 };
/** Rows rendered at most: a search narrows a large fleet. */
const MAX_ROWS = 300;

type SortKey = 'name' | 'state' | 'lastSeen';

/** Names compare as people read them ("Van 2" before "Van 10"), and far faster than localeCompare. */
export const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** The live map's side: the vehicle list (search, sort) and the selected vehicle's panel. */
export function VehiclesView({ api, fleet, map }: { api: Api; fleet: Fleet; map: FleetMap }) {
  useFleet(fleet);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortKey>('name');
  const [selected, setSelected] = useState<number | null>(null);
  const [follow, setFollow] = useState(false);
  const vehicles = fleet.vehicleList();

  useEffect(() => map.onVehicleClick((id) => setSelected(id)), [map]);
  useEffect(() => map.setVehicles(vehicles, selected));
  const [fitted, setFitted] = useState(false);
  useEffect(() => {
    if (!fitted && !fleet.loading && vehicles.length > 0) {
      map.fit(vehicles.map((vehicle) => [vehicle.lng, vehicle.lat]));
      setFitted(true);
    }
  }, [fleet.loading, vehicles.length]);
  const current = selected === null ? undefined : fleet.vehicles.get(selected);
  useEffect(() => {
    if (follow && current) map.flyTo([current.lng, current.lat], 14);
  }, [follow, current?.lat, current?.lng]);

  const rows = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const matching = vehicles.filter(
      (vehicle) =>
        !needle ||
        vehicle.deviceName?.toLowerCase().includes(needle) ||
        vehicle.imei?.includes(needle) ||
        String(vehicle.deviceId) === needle,
    );
    // Sorted several times a second for thousands of vehicles: each key is computed once per vehicle.
    const keyed = matching.map((vehicle) => ({
      vehicle,
      key:
        sort === 'name'
          ? 0
          : sort === 'state'
            ? STATE_ORDER[vehicleState(vehicle)]
            : -Date.parse(vehicle.utcTime),
    }));
    keyed.sort(
      (a, b) =>
        a.key - b.key ||
        (sort === 'name' ? byName.compare(a.vehicle.deviceName ?? '', b.vehicle.deviceName ?? '') : 0) ||
        a.vehicle.deviceId - b.vehicle.deviceId,
    );
    return keyed.map((entry) => entry.vehicle);
  }, [vehicles, search, sort]);

  const select = (vehicle: VehiclePosition) => {
    setSelected(vehicle.deviceId);
    map.flyTo([vehicle.lng, vehicle.lat]);
  };

  return (
    <div class="vehicles">
      {current && (
        <VehiclePanel
          api={api}
          fleet={fleet}
          vehicle={current}
          follow={follow}
          onFollow={setFollow}
          onClose={() => {
            setSelected(null);
            setFollow(false);
          }}
        />
      )}
      <div class="toolbar">
        <label>
          <span class="visually-hidden">Search vehicles</span>
          <input
            type="search"
            placeholder="Search name, IMEI or id"
            aria-label="Search vehicles"
            value={search}
            onInput={(event) => setSearch((event.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          Sort
          <select
            value={sort}
            onChange={(event) => setSort((event.target as HTMLSelectElement).value as SortKey)}
          >
            <option value="name">by name</option>
            <option value="state">by state</option>
            <option value="lastSeen">by last seen</option>
          </select>
        </label>
      </div>
      {fleet.loading && vehicles.length === 0 ? (
        <p class="muted" role="status">
          Loading vehicles…
        </p>
      ) : (
        <p class="muted" data-testid="vehicle-total">
          {rows.length} of {vehicles.length} vehicles
          {rows.length > MAX_ROWS ? ` (the first ${MAX_ROWS} shown: search to narrow)` : ''}
        </p>
      )}
      <ul class="list" aria-label="Vehicles">
        {rows.slice(0, MAX_ROWS).map((vehicle) => {
          const state = vehicleState(vehicle);
          return (
            <li key={vehicle.deviceId}>
              <button
                type="button"
                class={`row ${vehicle.deviceId === selected ? 'selected' : ''}`}
                data-testid="vehicle-item"
                data-vehicle-id={vehicle.deviceId}
                aria-pressed={vehicle.deviceId === selected}
                onClick={() => select(vehicle)}
              >
                <span class="dot" style={{ background: STATE_COLOURS[state] }} aria-hidden="true" />
                <span class="grow">{vehicle.deviceName}</span>
                <span class="muted small">
                  {state} · {formatTime(vehicle.utcTime, fleet.timeZone)}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function VehiclePanel(props: {
  api: Api;
  fleet: Fleet;
  vehicle: VehiclePosition;
  follow: boolean;
  onFollow: (follow: boolean) => void;
  onClose: () => void;
}) {
  const { api, fleet, vehicle } = props;
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const state = vehicleState(vehicle);
  const zone = fleet.timeZone;
  const commands = fleet.commands.ofVehicle(vehicle.deviceId, 5);
  const insecureCommands = useInsecureCommands(api, vehicle.deviceId);

  const send = async (kind: 'lock' | 'unlock' | 'ignitionOn' | 'ignitionOff' | 'locate') => {
    setError(null);
    try {
      const id = vehicle.deviceId;
      if (kind === 'locate') {
        const legacy = await api.send<{ CommandId: string }>('POST', '/api/UpdateLocation', undefined, {
          id,
        });
        fleet.trackCommand(await api.get<CommandRecord>(`/v2/api/commands/${legacy.CommandId}`));
        return;
      }
      const command =
        kind === 'lock' || kind === 'unlock'
          ? await api.send<CommandRecord>('PUT', `/v2/api/vehicles/${id}/door-lock`, {
              isLock: kind === 'lock',
            })
          : await api.send<CommandRecord>('POST', `/v2/api/vehicles/${id}/ignition`, {
              isOn: kind === 'ignitionOn',
            });
      fleet.trackCommand(command);
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  const facts: [string, string][] = [
    ['State', state],
    ['Speed', `${Math.round(vehicle.speed ?? 0)} km/h`],
    ['Ignition', vehicle.ignition ? 'on' : 'off'],
    ['Voltage', vehicle.voltage === undefined || vehicle.voltage === null ? '—' : `${vehicle.voltage} V`],
    ['Odometer', vehicle.odometer === undefined || vehicle.odometer === null ? '—' : `${vehicle.odometer}`],
    ['Doors', vehicle.isDoorLocked ? 'locked' : 'unlocked'],
    ['Address', vehicle.address || '—'],
    ['Last seen', formatTime(vehicle.utcTime, zone)],
    ['Protocol', vehicle.protocol ?? '—'],
    ['IMEI', vehicle.imei],
  ];

  return (
    <section class="panel" data-testid="vehicle-panel" aria-labelledby="vehicle-title">
      <div class="panel-head">
        <h2 id="vehicle-title">{vehicle.deviceName}</h2>
        <button type="button" class="link" onClick={props.onClose} aria-label="Close the vehicle panel">
          ✕
        </button>
      </div>
      <dl class="facts">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd data-fact={term}>{value}</dd>
          </div>
        ))}
      </dl>
      <label class="inline">
        <input
          type="checkbox"
          checked={props.follow}
          onChange={(event) => props.onFollow((event.target as HTMLInputElement).checked)}
        />
        Follow on the map
      </label>
      {insecureCommands && (
        <p class="warning" role="note" data-testid="insecure-commands">
          Insecure commands: an operator opted this vehicle's tracker out of authentication, so its commands
          go to any device that reports with its IMEI.
        </p>
      )}
      <div class="buttons" role="group" aria-label="Commands">
        <button type="button" onClick={() => void send('lock')}>
          Lock doors
        </button>
        <button type="button" onClick={() => void send('unlock')}>
          Unlock doors
        </button>
        <button type="button" onClick={() => void send('ignitionOn')}>
          Enable ignition
        </button>
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Disable ignition
        </button>
        <button type="button" onClick={() => void send('locate')}>
          Locate
        </button>
      </div>
      {confirming && (
        <div class="dialog" role="alertdialog" aria-labelledby="immobilise-title" aria-modal="true">
          <p id="immobilise-title">
            Disable the ignition of {vehicle.deviceName}? A moving vehicle stops being able to restart.
          </p>
          <div class="buttons">
            <button
              type="button"
              class="danger"
              autoFocus
              onClick={() => {
                setConfirming(false);
                void send('ignitionOff');
              }}
            >
              Disable ignition
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {commands.length > 0 && (
        <ul class="commands" aria-label="Commands sent">
          {commands.map((command) => (
            <li
              key={command.id}
              data-testid="command-status"
              data-command-id={command.id}
              data-status={command.status}
            >
              <span>{describeCommand(command)}</span>
              <span class={`badge badge-${command.status}`} aria-live="polite">
                {command.status}
                {!FINISHED.has(command.status) && '…'}
              </span>
              {command.reason && (
                // Why it failed or expired, or why a queued one waits (no authenticated device yet).
                <span class={command.status === 'queued' ? 'command-reason warning' : 'command-reason'}>
                  {command.reason}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function describeCommand(command: CommandRecord): string {
  switch (command.type) {
    case 'doorLock':
      return command.isLock ? 'Lock doors' : 'Unlock doors';
    case 'ignition':
      return command.isOn ? 'Enable ignition' : 'Disable ignition';
    case 'locate':
      return 'Locate';
    default:
      return command.type;
  }
}

/**
 * Whether an operator opted the vehicle's tracker out of authenticated commands (docs/security.md, F1):
 * its device settings, which only a token granted `devices:manage` may read (asked for only then, so
 * that no other session meets a 403); any other answer shows nothing.
 */
function useInsecureCommands(api: Api, vehicleId: number): boolean {
  const [insecure, setInsecure] = useState(false);
  const mayRead = api.session?.actions?.includes('devices:manage') === true;
  useEffect(() => {
    let current = true;
    setInsecure(false);
    if (!mayRead) return undefined;
    api
      .get<{ insecureCommands?: boolean }>(`/v2/api/vehicles/${vehicleId}/device-settings`)
      .then((settings) => current && setInsecure(settings.insecureCommands === true))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [api, vehicleId, mayRead]);
  return insecure;
}
