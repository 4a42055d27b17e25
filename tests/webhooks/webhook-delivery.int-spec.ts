import { CompaniesService } from '@fleet/auth-service';
import { DeliveryLogRetention } from '@fleet/webhook-dispatcher-service';
import { WebhookReceiver, waitFor } from '@fleet/testing';
import { verify } from '@octokit/webhooks-methods';
import { firedAlert, WebhookDeliveryContext } from './webhook-delivery-context';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * What a webhook receiver gets (spec, "Events"): headers and signature checked with an independent
 * library, payloads, the retry schedule, redirects, timeouts, which alerts reach which webhook, and
 * what stops deliveries (inactive, deleted, suspended company). Real HTTP receivers on 127.0.0.1.
 */
describe('webhook delivery', () => {
  let h: WebhookDeliveryContext;
  let receiver: WebhookReceiver;
  let companyId: number;
  let token: string;

  /**
   * The retry schedule as a delivery's attempts logged it: for each attempt, the delay from its
   * outcome to the time the next attempt was due (null after the last), and whether it started no
   * earlier than the time the attempt before it had scheduled it for (null for the first; the start is
   * kept in milliseconds).
   */
  const scheduleOf = async (deliveryId: string) => {
    const { rows } = await h.database.pool.query<{
      attempt: number;
      retry_after_ms: number | null;
      started_after_due: boolean | null;
    }>(
      `SELECT attempt, (EXTRACT(EPOCH FROM retry_at - settled_at) * 1000)::int AS retry_after_ms,
              started_at >= date_trunc('milliseconds', lag(retry_at) OVER (ORDER BY attempt)) AS started_after_due
         FROM webhooks.delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`,
      [deliveryId],
    );
    return rows.map((row) => ({
      attempt: row.attempt,
      retryAfterMs: row.retry_after_ms,
      startedAfterDue: row.started_after_due,
    }));
  };

  beforeAll(async () => {
    h = await WebhookDeliveryContext.open();
    receiver = await WebhookReceiver.start();
    ({ companyId, token } = await h.newTenant());
  });

  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  it('POSTs the payload with its headers, signed with the secret as the spec says', async () => {
    const configurationId = await h.configuration(companyId, 10);
    const webhook = await h.createWebhook(token, {
      url: receiver.url('/signed'),
      alertIds: [configurationId],
    });
    await h.fire(firedAlert(10, configurationId, companyId, { vehicleName: 'Truck 7', course: 359 }));

    const [request] = await receiver.waitForRequests(1, { path: '/signed' });
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-service-delivery']).toMatch(UUID);
    expect(request.headers['x-service-event']).toMatch(UUID);
    const signature = request.headers['x-service-signature'] as string;
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    await expect(verify(webhook.secret, request.body, signature)).resolves.toBe(true);
    await expect(verify(`x${webhook.secret.slice(1)}`, request.body, signature)).resolves.toBe(false);

    const payload = JSON.parse(request.body);
    expect(payload).toEqual({
      AlertType: 'ExceedMaximumSpeed',
      VehicleId: 4242,
      VehicleName: 'Truck 7',
      Position: { Lat: 52.52, Lng: 13.405 },
      Direction: 359,
      Timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      Address: {
        Street: 'Unter den Linden 1',
        Suburb: 'Mitte',
        State: 'Berlin',
        Postcode: '10117',
        Country: 'Germany',
      },
      Data: { Speed: 112.5, MaxSpeed: 100 },
    });
    // Whole values without a decimal point.
    expect(request.body).toContain('"MaxSpeed":100}');
  });

  it('retries twice, 2 s and 5 s after failures, with the same bytes and a new delivery UUID each time', async () => {
    const configurationId = await h.configuration(companyId, 5);
    await h.createWebhook(token, { url: receiver.url('/failing'), alertIds: [configurationId] });
    receiver.answer((request) =>
      request.url === '/failing' ? { status: 500, body: 'down for maintenance' } : { status: 200 },
    );
    await h.fire(firedAlert(5, configurationId, companyId));

    const attempts = await receiver.waitForRequests(3, { path: '/failing', timeoutMs: 20_000 });
    receiver.answer(() => ({ status: 200 }));
    expect(new Set(attempts.map((request) => request.body)).size).toBe(1);
    expect(new Set(attempts.map((request) => request.headers['x-service-delivery'])).size).toBe(3);
    expect(new Set(attempts.map((request) => request.headers['x-service-event'])).size).toBe(1);
    expect(new Set(attempts.map((request) => request.headers['x-service-signature'])).size).toBe(1);

    const eventId = attempts[0].headers['x-service-event'] as string;
    const row = await waitFor(async () => {
      const { rows } = await h.database.pool.query(
        `SELECT status, attempts, outcome FROM webhooks.deliveries WHERE id = $1`,
        [eventId],
      );
      return rows[0]?.status === 'failed' && rows[0];
    });
    expect(row.attempts).toBe(3);
    expect(row.outcome).toContain('500');
    // The schedule as the dispatcher applied it, read from the attempts it logged.
    expect(await scheduleOf(eventId)).toEqual([
      { attempt: 1, retryAfterMs: 2_000, startedAfterDue: null },
      { attempt: 2, retryAfterMs: 5_000, startedAfterDue: true },
      { attempt: 3, retryAfterMs: null, startedAfterDue: true },
    ]);
  });

  it('fails an attempt that gets no complete answer within 5 s, and the retry delivers', async () => {
    const configurationId = await h.configuration(companyId, 9);
    const slow = await WebhookReceiver.start();
    try {
      slow.answer((_request, index) => (index === 0 ? 'hang' : { status: 204 }));
      await h.createWebhook(token, { url: slow.url('/slow'), alertIds: [configurationId] });
      await h.fire(firedAlert(9, configurationId, companyId));
      const [, second] = await slow.waitForRequests(2, { timeoutMs: 20_000 });
      const eventId = second.headers['x-service-event'] as string;
      const attempts = await waitFor(async () => {
        const { rows } = await h.database.pool.query(
          `SELECT a.attempt, a.status_code, a.error, a.duration_ms, d.status FROM webhooks.delivery_attempts a
             JOIN webhooks.deliveries d ON d.id = a.delivery_id WHERE d.id = $1 ORDER BY a.attempt`,
          [eventId],
        );
        return rows.length === 2 && rows[1].status === 'delivered' && rows;
      });
      expect(attempts[0].status_code).toBeNull();
      expect(attempts[0].error).toMatch(/timeout|timed out/i);
      expect(attempts[1].status_code).toBe(204);
      // The first attempt waited the whole 5 s before giving up; the retry was due 2 s after that.
      expect(attempts[0].duration_ms).toBeGreaterThanOrEqual(5_000);
      expect(await scheduleOf(eventId)).toEqual([
        { attempt: 1, retryAfterMs: 2_000, startedAfterDue: null },
        { attempt: 2, retryAfterMs: null, startedAfterDue: true },
      ]);
    } finally {
      await slow.close();
    }
  });

  it('follows a 302 once as a GET without body; a 307 fails the attempt', async () => {
    const configurationId = await h.configuration(companyId, 8);
    receiver.answer((request) => {
      if (request.url === '/moved') return { status: 302, headers: { location: '/final' } };
      if (request.url === '/temporary') return { status: 307, headers: { location: '/final' } };
      return { status: 200 };
    });
    await h.createWebhook(token, { url: receiver.url('/moved'), alertIds: [configurationId] });
    await h.fire(firedAlert(8, configurationId, companyId));
    const [followed] = await receiver.waitForRequests(1, { path: '/final' });
    expect(followed.method).toBe('GET');
    expect(followed.body).toBe('');
    expect(followed.headers['content-type']).toBeUndefined();

    const other = await h.configuration(companyId, 8);
    const webhook = await h.createWebhook(token, { url: receiver.url('/temporary'), alertIds: [other] });
    await h.fire(firedAlert(8, other, companyId));
    await receiver.waitForRequests(1, { path: '/temporary' });
    const [delivery] = await waitFor(async () => {
      const rows = await h.deliveriesOf(webhook.id);
      return rows[0]?.attempts === 1 && rows;
    });
    expect(delivery.status).toBe('pending');
    // The 307 was not followed: /final got only the GET of the 302.
    expect(receiver.on('/final')).toHaveLength(1);
    receiver.answer(() => ({ status: 200 }));
  });

  it('drops without an attempt a delivery whose host is a refused address, in any notation', async () => {
    // 127.0.0.2 is loopback outside the allowed 127.0.0.1/32: a receiver there proves nothing is sent.
    const hidden = await WebhookReceiver.start('127.0.0.2');
    try {
      const port = hidden.port;
      const forms = [
        `http://127.0.0.2:${port}/`,
        `http://2130706434:${port}/`,
        `http://0x7f000002:${port}/`,
        `http://0177.0.0.2:${port}/`,
        `http://[::ffff:127.0.0.2]:${port}/`,
        `http://169.254.169.254/latest/meta-data`,
        `http://10.0.0.1/`,
      ];
      const configurationId = await h.configuration(companyId, 1);
      const webhooks = [];
      for (const url of forms)
        webhooks.push(await h.createWebhook(token, { url, alertIds: [configurationId] }));
      await h.fire(firedAlert(1, configurationId, companyId));
      for (const webhook of webhooks) {
        const [delivery] = await waitFor(async () => {
          const rows = await h.deliveriesOf(webhook.id);
          return rows[0]?.status === 'dropped' && rows;
        });
        expect(delivery.attempts).toBe(0);
        expect(delivery.outcome).toBeTruthy();
      }
      expect(hidden.requests).toHaveLength(0);
    } finally {
      await hidden.close();
    }
  });

  it('delivers to a global webhook the alerts of sub-companies and the global-only types, Data null', async () => {
    const globalReceiver = await WebhookReceiver.start();
    try {
      const parent = await h.newTenant();
      const child = await h.newCompany({ parentId: parent.companyId });
      const webhook = await h.createWebhook(parent.token, {
        url: globalReceiver.url('/global'),
        isGlobal: true,
      });
      // First, an alert of another tenant's sub-company: it must not reach this webhook.
      const elsewhere = await h.newCompany({ parentId: companyId });
      await h.fire(
        firedAlert(5, await h.configuration(elsewhere, 5), elsewhere, { ancestorCompanyIds: [companyId] }),
      );
      const types = [1, 2, 5, 8, 9, 10, 3, 12, 13, 14];
      for (const type of types) {
        await h.fire(
          firedAlert(type, await h.configuration(child, type), child, {
            ancestorCompanyIds: [parent.companyId],
          }),
        );
      }
      const received = await globalReceiver.waitForRequests(types.length);
      const byType = new Map(
        received.map((request) => [JSON.parse(request.body).AlertType as string, JSON.parse(request.body)]),
      );
      for (const label of ['Geofence', 'Ignition', 'LowBattery', 'ExceedMaximumSpeed']) {
        expect(byType.get(label)?.Data).not.toBeNull();
      }
      const globalOnly = received
        .map((request) => JSON.parse(request.body))
        .filter(
          (payload) =>
            !['Geofence', 'Ignition', 'LowBattery', 'ExceedMaximumSpeed'].includes(payload.AlertType),
        );
      expect(globalOnly).toHaveLength(4);
      for (const payload of globalOnly) expect(payload.Data).toBeNull();
      // Same vehicle, so one partition in order: the other tenant's alert was planned before these.
      expect(await h.deliveriesOf(webhook.id)).toHaveLength(types.length);
    } finally {
      await globalReceiver.close();
    }
  });

  it('never delivers types 15, 16, 17 and 20, and nothing to inactive, deleted or suspended-company webhooks', async () => {
    const tenant = await h.newTenant();
    const sink = await WebhookReceiver.start();
    try {
      const global = await h.createWebhook(tenant.token, { url: sink.url('/global'), isGlobal: true });
      const engineTemp = await h.configuration(tenant.companyId, 17);
      const linked17 = await h.createWebhook(tenant.token, {
        url: sink.url('/type17'),
        alertIds: [engineTemp],
      });
      const ignition = await h.configuration(tenant.companyId, 5);
      const inactive = await h.createWebhook(tenant.token, {
        url: sink.url('/inactive'),
        alertIds: [ignition],
      });
      const deleted = await h.createWebhook(tenant.token, {
        url: sink.url('/deleted'),
        alertIds: [ignition],
      });
      const put = await h.app.inject({
        method: 'PUT',
        url: `/v2/api/webhooks/${inactive.id}?isActive=false`,
        headers: { authorization: `Bearer ${tenant.token}` },
      });
      expect(put.statusCode).toBe(200);
      const del = await h.app.inject({
        method: 'DELETE',
        url: `/v2/api/webhooks/${deleted.id}`,
        headers: { authorization: `Bearer ${tenant.token}` },
      });
      expect(del.statusCode).toBe(200);

      const suspended = await h.newTenant();
      const suspendedConfiguration = await h.configuration(suspended.companyId, 5);
      const ofSuspended = await h.createWebhook(suspended.token, {
        url: sink.url('/suspended'),
        alertIds: [suspendedConfiguration],
      });
      await h.app.get(CompaniesService).setStatus(suspended.companyId, 'suspended');
      await h.waitForCompany(suspended.companyId, 'suspended');

      const never = [15, 16, 17, 20];
      for (const type of never) {
        const configurationId = type === 17 ? engineTemp : await h.configuration(tenant.companyId, type);
        await h.fire(firedAlert(type, configurationId, tenant.companyId));
      }
      await h.fire(firedAlert(5, suspendedConfiguration, suspended.companyId));
      await h.fire(firedAlert(5, ignition, tenant.companyId));
      // The control: the last alert, same vehicle (same partition, in order), reaches the global webhook.
      const control = firedAlert(5, ignition, tenant.companyId);
      await h.fire(control);
      await waitFor(() => sink.on('/global').length >= 2);
      await waitFor(async () => (await h.deliveriesOf(global.id)).length === 2);

      expect(sink.on('/global').map((request) => JSON.parse(request.body).AlertType)).toEqual([
        'Ignition',
        'Ignition',
      ]);
      expect(sink.on('/type17')).toHaveLength(0);
      expect(sink.on('/inactive')).toHaveLength(0);
      expect(sink.on('/deleted')).toHaveLength(0);
      expect(sink.on('/suspended')).toHaveLength(0);
      for (const webhook of [linked17, inactive, deleted, ofSuspended]) {
        expect(await h.deliveriesOf(webhook.id)).toEqual([]);
      }
    } finally {
      await sink.close();
    }
  });

  it('reads the company at send time: a retry after the company was suspended is dropped', async () => {
    const tenant = await h.newTenant();
    const sink = await WebhookReceiver.start();
    try {
      sink.answer(() => ({ status: 503 }));
      const configurationId = await h.configuration(tenant.companyId, 2);
      const webhook = await h.createWebhook(tenant.token, {
        url: sink.url('/later'),
        alertIds: [configurationId],
      });
      await h.fire(firedAlert(2, configurationId, tenant.companyId));
      await sink.waitForRequests(1);
      await h.app.get(CompaniesService).setStatus(tenant.companyId, 'suspended');
      await h.waitForCompany(tenant.companyId, 'suspended');
      const [delivery] = await waitFor(async () => {
        const rows = await h.deliveriesOf(webhook.id);
        return rows[0]?.status === 'dropped' && rows;
      });
      expect(delivery.attempts).toBe(1);
      expect(delivery.outcome).toContain('suspended');
      expect(sink.requests).toHaveLength(1);
    } finally {
      await sink.close();
    }
  });

  it('makes one delivery per webhook of an alert consumed twice, and one per configuration that fired', async () => {
    const tenant = await h.newTenant();
    const sink = await WebhookReceiver.start();
    try {
      const first = await h.configuration(tenant.companyId, 1);
      const second = await h.configuration(tenant.companyId, 1);
      const webhook = await h.createWebhook(tenant.token, {
        url: sink.url('/twice'),
        alertIds: [first, second],
      });
      const alert = firedAlert(1, first, tenant.companyId);
      await h.fire(alert);
      await h.fire(alert);
      await h.fire(firedAlert(1, second, tenant.companyId));
      await sink.waitForRequests(2);
      await h.transportIdle();
      const deliveries = await h.deliveriesOf(webhook.id);
      expect(deliveries.map((row) => row.alert_event_id).filter((id) => id === alert.eventId)).toHaveLength(
        1,
      );
      expect(deliveries).toHaveLength(2);
    } finally {
      await sink.close();
    }
  });

  it('keeps a delivery log with every attempt, and redelivers the same body as a new delivery', async () => {
    const tenant = await h.newTenant();
    const sink = await WebhookReceiver.start();
    try {
      sink.answer((_request, index) =>
        index === 0 ? { status: 500, body: 'x'.repeat(3000) } : { status: 200, body: 'ok' },
      );
      const configurationId = await h.configuration(tenant.companyId, 9);
      const webhook = await h.createWebhook(tenant.token, {
        url: sink.url('/log'),
        alertIds: [configurationId],
      });
      await h.fire(firedAlert(9, configurationId, tenant.companyId));
      await sink.waitForRequests(2, { timeoutMs: 10_000 });
      const log = await waitFor(async () => {
        const response = await h.get(`/v2/api/webhooks/${webhook.id}/deliveries`, tenant.token);
        const body = response.json();
        return body.items?.[0]?.status === 'delivered' && body;
      });
      expect(log.totalResults).toBe(1);
      const [delivery] = log.items;
      expect(delivery).toMatchObject({ alertType: 'LowBattery', alertTypeId: 9, alertId: configurationId });
      expect(delivery.attempts).toHaveLength(2);
      expect(delivery.attempts[0]).toMatchObject({ attempt: 1, statusCode: 500 });
      expect(delivery.attempts[0].response).toHaveLength(1024);
      expect(delivery.attempts[1]).toMatchObject({
        attempt: 2,
        statusCode: 200,
        response: 'ok',
        error: null,
      });
      expect(delivery.attempts[1].deliveryId).toBe(sink.requests[1].headers['x-service-delivery']);

      const redeliver = await h.post(
        `/v2/api/webhooks/${webhook.id}/deliveries/${delivery.id}/redeliver`,
        tenant.token,
      );
      expect(redeliver.statusCode).toBe(201);
      expect(redeliver.json()).toMatchObject({ redeliveryOf: delivery.id, status: 'pending' });
      const [, , again] = await sink.waitForRequests(3);
      expect(again.body).toBe(sink.requests[0].body);
      expect(again.headers['x-service-event']).toBe(redeliver.json().id);

      // Another company's token sees neither the log nor the delivery.
      expect((await h.get(`/v2/api/webhooks/${webhook.id}/deliveries`, token)).statusCode).toBe(404);
      expect(
        (await h.post(`/v2/api/webhooks/${webhook.id}/deliveries/${delivery.id}/redeliver`, token))
          .statusCode,
      ).toBe(404);
      expect(
        (await h.post(`/v2/api/webhooks/${webhook.id}/deliveries/not-a-uuid/redeliver`, tenant.token))
          .statusCode,
      ).toBe(422);
    } finally {
      await sink.close();
    }
  });

  it('prunes finished deliveries past WEBHOOK_LOG_RETENTION_DAYS and keeps the rest', async () => {
    const configurationId = await h.configuration(companyId, 5);
    const webhook = await h.createWebhook(token, {
      url: receiver.url('/retention'),
      alertIds: [configurationId],
    });
    await h.database.pool.query(
      `INSERT INTO webhooks.deliveries (id, webhook_id, alert_event_id, configuration_id, alert_type_id, body, status, created_at, finished_at)
       VALUES (gen_random_uuid(), $1, gen_random_uuid(), $2, 5, '{}', 'delivered', now() - interval '40 days', now() - interval '40 days'),
              (gen_random_uuid(), $1, gen_random_uuid(), $2, 5, '{}', 'delivered', now() - interval '20 days', now() - interval '20 days')`,
      [webhook.id, configurationId],
    );
    const pruned = await h.app.get(DeliveryLogRetention).prune();
    expect(pruned).toBeGreaterThanOrEqual(1);
    const rows = await h.deliveriesOf(webhook.id);
    expect(rows).toHaveLength(1);
  });

  it('resumes a pending delivery after the dispatcher restarts', async () => {
    const first = await WebhookDeliveryContext.open();
    const sink = await WebhookReceiver.start();
    let second: WebhookDeliveryContext | undefined;
    try {
      sink.answer((_request, index) => (index === 0 ? { status: 500 } : { status: 200 }));
      const tenant = await first.newTenant();
      const configurationId = await first.configuration(tenant.companyId, 10);
      await first.createWebhook(tenant.token, { url: sink.url('/restart'), alertIds: [configurationId] });
      await first.fire(firedAlert(10, configurationId, tenant.companyId));
      await sink.waitForRequests(1);
      const database = await first.stop();
      second = await WebhookDeliveryContext.open({}, database);
      const [failed, retried] = await sink.waitForRequests(2);
      expect(retried.body).toBe(failed.body);
      expect(retried.headers['x-service-event']).toBe(failed.headers['x-service-event']);
    } finally {
      await sink.close();
      if (second) await second.close();
      else await first.close();
    }
  });

  it('lets a slow receiver hold only its own share of slots', async () => {
    const limited = await WebhookDeliveryContext.open({
      WEBHOOK_MAX_CONCURRENCY: '4',
      WEBHOOK_MAX_PER_ENDPOINT: '2',
    });
    const stuck = await WebhookReceiver.start();
    const healthy = await WebhookReceiver.start();
    try {
      stuck.answer(() => 'hang');
      const tenant = await limited.newTenant();
      const slowConfiguration = await limited.configuration(tenant.companyId, 5);
      const fastConfiguration = await limited.configuration(tenant.companyId, 8);
      await limited.createWebhook(tenant.token, { url: stuck.url('/stuck'), alertIds: [slowConfiguration] });
      await limited.createWebhook(tenant.token, {
        url: healthy.url('/healthy'),
        alertIds: [fastConfiguration],
      });
      for (let index = 0; index < 10; index += 1)
        await limited.fire(firedAlert(5, slowConfiguration, tenant.companyId));
      await stuck.waitForRequests(2);
      await limited.fire(firedAlert(8, fastConfiguration, tenant.companyId));
      await healthy.waitForRequests(1);
      // The healthy delivery arrived while the stuck endpoint still held its two attempts (none ended).
      const { rows } = await limited.database.pool
        .query(`SELECT count(*)::int AS n FROM webhooks.delivery_attempts a
        JOIN webhooks.deliveries d ON d.id = a.delivery_id WHERE d.alert_type_id = 5`);
      expect(rows[0].n).toBe(0);
      expect(stuck.requests).toHaveLength(2);
    } finally {
      await stuck.close();
      await healthy.close();
      await limited.close();
    }
  });
});
