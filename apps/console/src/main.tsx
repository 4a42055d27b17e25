import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Api, ApiError } from './api';
import { Fleet } from './fleet';
import { FleetMap } from './map';
import './styles.css';
import { AlertsView } from './views/alerts';
import { GeofencesView } from './views/geofences';
import { InsightsView } from './views/insights';
import { SignIn } from './views/sign-in';
import { TripsView } from './views/trips';
import { VehiclesView } from './views/vehicles';
import { WebhooksView } from './views/webhooks';
import { useFleet } from './views/use-fleet';

const api = new Api();

const SECTIONS = [
  ['vehicles', 'Live map'],
  ['trips', 'Trips'],
  ['alerts', 'Alerts'],
  ['geofences', 'Geofences'],
  ['webhooks', 'Webhooks'],
  ['insights', 'Insights'],
] as const;
export type Section = (typeof SECTIONS)[number][0];

interface Company {
  id: number;
  name: string;
  level: number;
}

function sectionOfHash(): Section {
  const name = location.hash.replace(/^#\/?/, '').split('/')[0];
  return (SECTIONS.find(([id]) => id === name)?.[0] ?? 'vehicles') as Section;
}

function useApi(): Api {
  const [, setVersion] = useState(0);
  useEffect(() => api.onChange(() => setVersion((version) => version + 1)), []);
  return api;
}

function App() {
  const client = useApi();
  if (!client.session) return <SignIn api={client} />;
  return <Console api={client} />;
}

function Console({ api }: { api: Api }) {
  const [companies, setCompanies] = useState<Company[] | null>(null);
  const [companyId, setCompanyId] = useState(api.session!.companyId);
  const [section, setSection] = useState<Section>(sectionOfHash());
  const [styleUrl, setStyleUrl] = useState<string | null | undefined>(undefined);
  const mapElement = useRef<HTMLDivElement>(null);
  const [fleetMap, setFleetMap] = useState<FleetMap | null>(null);

  useEffect(() => {
    const onHash = () => setSection(sectionOfHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    void fetch('config.json')
      .then((response) => response.json() as Promise<{ mapStyleUrl: string | null }>)
      .then((config) => setStyleUrl(config.mapStyleUrl))
      .catch(() => setStyleUrl(null));
    api
      .all<Company>('/v2/api/companies')
      .then(setCompanies)
      .catch((error: unknown) => {
        if (!(error instanceof ApiError && (error.suspended || error.status === 401))) setCompanies([]);
      });
  }, [api]);
  useEffect(() => {
    if (styleUrl === undefined || !mapElement.current) return;
    const map = new FleetMap(mapElement.current, styleUrl);
    setFleetMap(map);
    // What the map draws, readable from outside (the browser tests check markers move).
    (window as unknown as { fleetConsole: unknown }).fleetConsole = {
      vehiclePoint: (id: number) => map.vehiclePoint(id),
      renderedVehicles: () => map.renderedVehicles(),
      ready: () => map.whenReady().then(() => true),
    };
    return () => map.map.remove();
  }, [styleUrl]);

  const fleet = useMemo(() => new Fleet(api, companyId), [api, companyId]);
  useEffect(() => {
    void fleet.start();
    return () => fleet.stop();
  }, [fleet]);
  useFleet(fleet);

  return (
    <div class="shell">
      <header class="top">
        <strong class="brand">Fleet console</strong>
        <label class="company">
          <span class="visually-hidden">Company</span>
          <select
            aria-label="Company"
            value={companyId}
            onChange={(event) => setCompanyId(Number((event.target as HTMLSelectElement).value))}
          >
            {(companies ?? [{ id: companyId, name: `Company ${companyId}`, level: 0 }]).map((company) => (
              <option value={company.id} key={company.id}>
                {'\u00a0'.repeat(company.level * 2)}
                {company.name}
              </option>
            ))}
          </select>
        </label>
        <span class={`live live-${fleet.status}`} role="status" data-testid="stream-status">
          {fleet.status === 'live' ? 'Live' : fleet.status === 'ended' ? 'Stream ended' : 'Reconnecting…'}
        </span>
        <button type="button" class="link" onClick={() => api.signOut()}>
          Sign out
        </button>
      </header>
      {api.suspended && (
        <div class="banner banner-error" role="alert" data-testid="suspended-banner">
          This company is suspended: the platform answers no request for it until it is reactivated.
        </div>
      )}
      {fleet.error && (
        <div class="banner banner-error" role="alert">
          {fleet.error}
        </div>
      )}
      <nav class="sections" aria-label="Sections">
        {SECTIONS.map(([id, label]) => (
          <a key={id} href={`#/${id}`} aria-current={section === id ? 'page' : undefined}>
            {label}
          </a>
        ))}
      </nav>
      <main class="body">
        <section class="side" aria-label={SECTIONS.find(([id]) => id === section)?.[1]}>
          {fleetMap && (
            <>
              {section === 'vehicles' && <VehiclesView api={api} fleet={fleet} map={fleetMap} />}
              {section === 'trips' && <TripsView api={api} fleet={fleet} map={fleetMap} />}
              {section === 'alerts' && <AlertsView api={api} fleet={fleet} map={fleetMap} />}
              {section === 'geofences' && <GeofencesView api={api} fleet={fleet} map={fleetMap} />}
              {section === 'webhooks' && <WebhooksView api={api} fleet={fleet} />}
              {section === 'insights' && <InsightsView api={api} fleet={fleet} />}
            </>
          )}
        </section>
        <div class="map" ref={mapElement} data-testid="map" role="region" aria-label="Map" />
      </main>
    </div>
  );
}

const root = document.getElementById('app')!;
// The page's "Loading" placeholder goes: Preact renders into an empty element.
root.textContent = '';
render(<App />, root);
