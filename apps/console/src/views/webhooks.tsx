import { useState } from 'preact/hooks';
import { Api } from '../api';
import { Fleet } from '../fleet';
import { errorText, formatTime, useLoaded } from './use-fleet';

interface Webhook {
  id: number;
  url: string;
  isActive: boolean;
  isGlobal: boolean;
  alertIds: number[];
  createdAt: string;
}

interface AlertConfiguration {
  id: number;
  name: string;
  alertType: string;
}

interface Attempt {
  attempt: number;
  startedAt: string;
  durationMs: number | null;
  statusCode: number | null;
  error: string | null;
}

interface Delivery {
  id: string;
  alertType: string;
  status: string;
  outcome: string | null;
  createdAt: string;
  attempts: Attempt[];
}

/** The company's webhooks: created (the secret shown once), switched on and off, deleted; their deliveries. */
export function WebhooksView({ api, fleet }: { api: Api; fleet: Fleet }) {
  const webhooks = useLoaded(() => api.all<Webhook>('/v2/api/webhooks', {}, 100), [fleet.companyId]);
  const configurations = useLoaded(
    () => api.all<AlertConfiguration>(`/v2/api/companies/${fleet.companyId}/alerts`, {}, 100),
    [fleet.companyId],
  );
  const [url, setUrl] = useState('');
  const [isGlobal, setIsGlobal] = useState(true);
  const [alertIds, setAlertIds] = useState<number[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);

  const act = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      webhooks.reload();
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  const create = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const created = await api.send<Webhook & { secret: string }>('POST', '/v2/api/webhooks', {
        url: url.trim(),
        isGlobal,
        ...(isGlobal ? {} : { alertIds }),
      });
      setSecret(created.secret);
      setCopied(false);
      setUrl('');
    });
  };

  return (
    <div class="webhooks">
      <form class="panel" onSubmit={create} aria-label="New webhook">
        <h2>New webhook</h2>
        <label>
          URL
          <input
            name="webhookUrl"
            type="url"
            required
            placeholder="https://example.com/fleet-events"
            value={url}
            onInput={(event) => setUrl((event.target as HTMLInputElement).value)}
          />
        </label>
        <label class="inline">
          <input
            type="checkbox"
            checked={isGlobal}
            onChange={(event) => setIsGlobal((event.target as HTMLInputElement).checked)}
          />
          Every alert of the company
        </label>
        {!isGlobal && (
          <fieldset>
            <legend>Alert configurations</legend>
            {(configurations.value ?? []).map((configuration) => (
              <label class="inline" key={configuration.id}>
                <input
                  type="checkbox"
                  checked={alertIds.includes(configuration.id)}
                  onChange={(event) =>
                    setAlertIds((ids) =>
                      (event.target as HTMLInputElement).checked
                        ? [...ids, configuration.id]
                        : ids.filter((id) => id !== configuration.id),
                    )
                  }
                />
                {configuration.name} ({configuration.alertType})
              </label>
            ))}
          </fieldset>
        )}
        <button type="submit" class="primary">
          Create
        </button>
      </form>
      {secret && (
        <div class="banner" role="status" data-testid="webhook-secret">
          <p>The signing secret, shown this once: store it where your receiver checks signatures.</p>
          <code>{secret}</code>
          <div class="buttons">
            <button
              type="button"
              onClick={() => void navigator.clipboard?.writeText(secret).then(() => setCopied(true))}
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
            <button type="button" onClick={() => setSecret(null)}>
              Done
            </button>
          </div>
        </div>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {webhooks.loading && !webhooks.value && (
        <p class="muted" role="status">
          Loading webhooks…
        </p>
      )}
      <ul class="list" aria-label="Webhooks">
        {(webhooks.value ?? []).map((webhook) => (
          <li key={webhook.id} class="column" data-testid="webhook-item" data-webhook-id={webhook.id}>
            <div class="row-static">
              <span class="grow break">{webhook.url}</span>
              <span class={`badge ${webhook.isActive ? 'badge-acknowledged' : 'badge-expired'}`}>
                {webhook.isActive ? 'active' : 'inactive'}
              </span>
            </div>
            <span class="muted small">
              {webhook.isGlobal ? 'every alert' : `alerts ${webhook.alertIds.join(', ') || 'none'}`} · since{' '}
              {formatTime(webhook.createdAt, fleet.timeZone)}
            </span>
            <div class="buttons">
              <button
                type="button"
                onClick={() =>
                  void act(() =>
                    api.send('PUT', `/v2/api/webhooks/${webhook.id}`, { isActive: !webhook.isActive }),
                  )
                }
              >
                {webhook.isActive ? 'Deactivate' : 'Activate'}
              </button>
              <button
                type="button"
                onClick={() => setOpen(open === webhook.id ? null : webhook.id)}
                aria-expanded={open === webhook.id}
              >
                Deliveries
              </button>
              <button
                type="button"
                class="danger"
                onClick={() => {
                  if (confirm(`Delete the webhook to ${webhook.url}?`))
                    void act(() => api.send('DELETE', `/v2/api/webhooks/${webhook.id}`));
                }}
              >
                Delete
              </button>
            </div>
            {open === webhook.id && <Deliveries api={api} webhookId={webhook.id} timeZone={fleet.timeZone} />}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Deliveries({ api, webhookId, timeZone }: { api: Api; webhookId: number; timeZone: string }) {
  const deliveries = useLoaded(
    () => api.get<{ items: Delivery[] }>(`/v2/api/webhooks/${webhookId}/deliveries`, { pageSize: 20 }),
    [webhookId],
  );
  const [error, setError] = useState<string | null>(null);
  if (deliveries.loading && !deliveries.value)
    return (
      <p class="muted" role="status">
        Loading deliveries…
      </p>
    );
  if (deliveries.error)
    return (
      <p class="error" role="alert">
        {deliveries.error}
      </p>
    );
  const items = deliveries.value?.items ?? [];
  return (
    <div class="deliveries">
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {items.length === 0 && <p class="muted">No deliveries yet.</p>}
      <table>
        <caption class="visually-hidden">Deliveries</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Alert</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {items.map((delivery) => (
            <tr key={delivery.id}>
              <td>{formatTime(delivery.createdAt, timeZone)}</td>
              <td>{delivery.alertType}</td>
              <td>
                {delivery.status}
                {delivery.outcome ? ` (${delivery.outcome})` : ''}
              </td>
              <td>
                {delivery.attempts.map((attempt) => (
                  <div key={attempt.attempt} class="small">
                    #{attempt.attempt}: {attempt.statusCode ?? attempt.error ?? '—'}
                    {attempt.durationMs === null ? '' : ` in ${attempt.durationMs} ms`}
                  </div>
                ))}
              </td>
              <td>
                <button
                  type="button"
                  class="link"
                  onClick={() =>
                    void api
                      .send('POST', `/v2/api/webhooks/${webhookId}/deliveries/${delivery.id}/redeliver`)
                      .then(() => deliveries.reload())
                      .catch((failure: unknown) => setError(errorText(failure)))
                  }
                >
                  Redeliver
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
