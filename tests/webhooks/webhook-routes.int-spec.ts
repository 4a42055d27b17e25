import { Actions } from '@fleet/contracts';
import { FormFields, formText, waitFor } from '@fleet/testing';
import { ConfigurationProjection } from '@fleet/webhook-dispatcher-service';
import { shapeProblems } from '../telemetry/record-schemas';
import {
  createdWebhookRecord,
  expect404,
  expect422,
  openSealed,
  WebhookAnswer,
  webhookRecord,
  withoutSecret,
} from './webhook-answers';
import { WebhookRoutesContext } from './webhook-routes-context';

describe('webhook management routes (real PostgreSQL; configurations through alert-engine)', () => {
  let h: WebhookRoutesContext;
  // top has a sub-company; outsider is another tenant.
  let top: number;
  let sub: number;
  let outsider: number;
  let topToken: string;
  let subToken: string;
  let outsiderToken: string;
  /** A key of top limited to reading alerts: no `webhooks:manage`. */
  let alertsOnlyToken: string;
  /** Configurations of top of each linkable type, in the projection; [0] made through alert-engine. */
  let linkable: number[];
  let subConfiguration: number;
  let outsiderConfiguration: number;

  const url = 'https://hooks.example.com/alerts';
  const create = (body: unknown, token = topToken) => h.send('POST', '/v2/api/webhooks', token, body);
  const created = async (body: unknown, token = topToken): Promise<WebhookAnswer> => {
    const answer = await create(body, token);
    expect({ status: answer.statusCode, body: answer.json() }).toMatchObject({ status: 201 });
    return answer.json<WebhookAnswer>();
  };
  beforeAll(async () => {
    h = await WebhookRoutesContext.open();
    ({ companyId: top, token: topToken } = await h.newTenant({ name: 'Top' }));
    sub = await h.newCompany({ name: 'Sub', parentId: top });
    subToken = await h.token(await h.newApiKey(sub));
    ({ companyId: outsider, token: outsiderToken } = await h.newTenant({ name: 'Outsider' }));
    alertsOnlyToken = await h.token(
      await h.newApiKey(top, { actions: [Actions.readAlerts, Actions.writeAlerts] }),
    );

    // Through alert-engine's route: the snapshot topic brings it to webhook-dispatcher's projection.
    const throughAlertEngine = await h.newConfiguration(top, topToken, 5);
    linkable = [throughAlertEngine];
    for (const type of [1, 2, 8, 9, 10]) linkable.push(...(await h.projectConfigurations(top, type)));
    [subConfiguration] = await h.projectConfigurations(sub, 5);
    [outsiderConfiguration] = await h.projectConfigurations(outsider, 5);
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('creating', () => {
    it('links a configuration created through alert-engine a moment ago, and shows the secret this once', async () => {
      const configuration = await h.newConfiguration(top, topToken, 8);
      // No wait for the projection: the route itself waits for a configuration it has not heard of yet.
      const answer = await create({ url: 'HTTPS://Hooks.Example.COM:443/in?a=1', alertIds: [configuration] });
      expect(answer.statusCode).toBe(201);
      const record = answer.json<WebhookAnswer>();
      expect(shapeProblems(record, createdWebhookRecord)).toEqual([]);
      expect(record).toMatchObject({
        url: 'https://hooks.example.com/in?a=1',
        isActive: true,
        isGlobal: false,
        alertIds: [configuration],
      });
      expect(record.secret).toMatch(/^[0-9a-f]{64}$/);
      expect(record.createdAt).toBe(record.updatedAt);

      const fetched = await h.get(`/v2/api/webhooks/${record.id}`, topToken);
      expect(fetched.statusCode).toBe(200);
      expect(shapeProblems(fetched.json(), webhookRecord)).toEqual([]);
      const secret = record.secret!;
      expect(fetched.json()).toEqual(withoutSecret(record));
      expect(fetched.body).not.toContain(secret);

      // At rest only encrypted: the column is not the secret, does not contain it, and opens to it.
      const stored = await h.storedWebhook(record.id);
      expect(stored.secret_ciphertext.toString('utf8')).not.toContain(secret);
      expect(stored.secret_ciphertext.includes(Buffer.from(secret, 'hex'))).toBe(false);
      expect(openSealed(stored.secret_ciphertext, record.id)).toBe(secret);
    });

    it('waits for a configuration that reaches the projection after the request came', async () => {
      // An id no helper of the context hands out, so that the projection has never heard of it.
      const late = 1_500_000;
      // Observed, not slept on: the configuration comes once the request has read the projection and
      // found the id missing, so it is in the wait.
      const reads = jest.spyOn(h.app.get(ConfigurationProjection), 'liveOf');
      const answer = create({ url, alertIds: [late] });
      await waitFor(() => reads.mock.calls.some(([ids]) => ids.includes(late)), {
        timeoutMs: 5_000,
        description: 'the request to read the projection for the configuration',
      });
      reads.mockRestore();
      await h.database.pool.query(
        `INSERT INTO webhooks.alert_configurations (configuration_id, company_id, alert_type_id, is_active, deleted, version)
         VALUES ($1, $2, 5, true, false, 1)`,
        [late, top],
      );
      const record = (await answer).json<WebhookAnswer>();
      expect(record).toMatchObject({ alertIds: [late] });
    });

    it('makes a global webhook without alertIds, and gives every webhook its own secret', async () => {
      const first = await created({ url, isGlobal: true });
      const second = await created({ url, isGlobal: true, alertIds: [linkable[1]] });
      expect(first).toMatchObject({ isGlobal: true, alertIds: [] });
      expect(second).toMatchObject({ isGlobal: true, alertIds: [linkable[1]] });
      expect(first.secret).not.toBe(second.secret);
    });

    it('takes type 17 and every linkable type, and de-duplicates alertIds', async () => {
      const [temperature] = await h.projectConfigurations(top, 17);
      const record = await created({ url, alertIds: [temperature, ...linkable, ...linkable] });
      expect(record.alertIds).toEqual([...linkable, temperature].sort((a, b) => a - b));
    });
  });

  describe('inputs as query parameters, JSON, form and multipart bodies', () => {
    const target = 'https://hooks.example.com/form?x=1&y=2';

    /** The same inputs in each form: `alertIds` as one comma-separated value or repeated. */
    function createAs(kind: 'query' | 'form' | 'multipart' | 'json', ids: number[], commaSeparated: boolean) {
      const fields: FormFields = [
        ['url', target],
        ...(commaSeparated
          ? [['alertIds', ids.join(',')] as const]
          : ids.map((id) => ['alertIds', String(id)] as const)),
      ];
      switch (kind) {
        case 'query':
          return h.send('POST', `/v2/api/webhooks?${formText(fields)}`, topToken);
        case 'form':
          return h.sendForm('POST', '/v2/api/webhooks', topToken, fields);
        case 'multipart':
          return h.sendMultipart('POST', '/v2/api/webhooks', topToken, fields);
        case 'json':
          return create({ url: target, alertIds: commaSeparated ? ids.join(',') : ids });
      }
    }

    it.each([
      ['query, repeated', 'query', false],
      ['query, comma-separated', 'query', true],
      ['form, repeated', 'form', false],
      ['form, comma-separated', 'form', true],
      ['multipart, repeated', 'multipart', false],
      ['multipart, comma-separated', 'multipart', true],
      ['JSON, an array', 'json', false],
      ['JSON, comma-separated text', 'json', true],
    ] as const)('%s', async (_what, kind, commaSeparated) => {
      const answer = await createAs(kind, [linkable[1], linkable[0]], commaSeparated);
      expect({ status: answer.statusCode, body: answer.json() }).toMatchObject({
        status: 201,
        body: { url: target, alertIds: [linkable[0], linkable[1]], isGlobal: false },
      });
    });

    it('reads booleans as text in any case, and lets the query win over the body', async () => {
      const global = await h.sendForm('POST', '/v2/api/webhooks', topToken, [
        ['url', url],
        ['isGlobal', 'TRUE'],
      ]);
      expect(global.json()).toMatchObject({ isGlobal: true, alertIds: [] });

      const both = await h.send(
        'POST',
        `/v2/api/webhooks?url=${encodeURIComponent('https://query.example.com/')}&alertIds=${linkable[2]}`,
        topToken,
        { url: 'https://body.example.com/', alertIds: [linkable[3]], isGlobal: false },
      );
      expect(both.json()).toMatchObject({
        url: 'https://query.example.com/',
        alertIds: [linkable[2]],
        isGlobal: false,
      });

      const record = both.json<WebhookAnswer>();
      const changed = await h.sendForm('PUT', `/v2/api/webhooks/${record.id}?isActive=false`, topToken, [
        ['isActive', 'true'],
        ['url', 'https://form.example.com/'],
      ]);
      expect(changed.json()).toMatchObject({ isActive: false, url: 'https://form.example.com/' });
    });
  });

  describe('rules: each a 422 naming its field', () => {
    it.each<[string, () => Promise<{ statusCode: number; json: () => unknown }>, RegExp]>([
      ['no url', () => create({ alertIds: [linkable[0]] }), /^url: is required/],
      ['an empty url', () => create({ url: '', alertIds: [linkable[0]] }), /^url: is required/],
      [
        'a relative url',
        () => create({ url: '/hooks', alertIds: [linkable[0]] }),
        /^url: must be an absolute http or https URL/,
      ],
      [
        'an ftp url',
        () => create({ url: 'ftp://example.com/', alertIds: [linkable[0]] }),
        /^url: must use http or https, not ftp:/,
      ],
      [
        'a url with credentials',
        () => create({ url: 'https://user:pw@example.com/', alertIds: [linkable[0]] }),
        /^url: must not contain a user name or password$/,
      ],
      [
        'a url of 2,049 characters',
        () => create({ url: `https://example.com/${'a'.repeat(2_029)}`, alertIds: [linkable[0]] }),
        /^url: must be at most 2048 characters/,
      ],
      ['a url that is no text', () => create({ url: 7, alertIds: [linkable[0]] }), /^url: /],
      [
        'an alert-scoped webhook without alertIds',
        () => create({ url }),
        /^alertIds: an alert-scoped webhook needs at least one/,
      ],
      [
        'an alert-scoped webhook with alertIds []',
        () => create({ url, alertIds: [], isGlobal: false }),
        /^alertIds: an alert-scoped webhook needs at least one/,
      ],
      [
        'alertIds that are no ids',
        () => h.send('POST', `/v2/api/webhooks?url=${url}&alertIds=1,x`, topToken),
        /^alertIds: /,
      ],
      ['alertIds below 1', () => create({ url, alertIds: [0] }), /^alertIds: /],
      ['alertIds of fractions', () => create({ url, alertIds: [1.5] }), /^alertIds: /],
      ['isGlobal that is no boolean', () => create({ url, isGlobal: 'maybe' }), /^isGlobal: /],
    ])('%s', async (_what, send, description) => {
      expect422(await send(), description);
    });

    it('gives unknown, deleted, a sub-company’s and another company’s configurations one and the same message', async () => {
      const [deleted] = await h.projectConfigurations(top, 5, 1, { deleted: true });
      const unknown = 999_999;
      const messages: string[] = [];
      for (const id of [unknown, deleted, subConfiguration, outsiderConfiguration]) {
        const answer = await create({ url, alertIds: [linkable[0], id] });
        expect422(answer, new RegExp(`^alertIds: ${id} is not an alert configuration of company ${top}$`));
        messages.push(answer.json<{ description: string }>().description.replace(String(id), '<id>'));
      }
      expect(new Set(messages).size).toBe(1);
    });

    it.each([3, 12, 15, 16, 20])('refuses a configuration of type %i, naming the type', async (type) => {
      const [id] = await h.projectConfigurations(top, type);
      expect422(
        await create({ url, alertIds: [linkable[0], id] }),
        new RegExp(
          `^alertIds: ${id} is an alert configuration of type ${type} \\(\\w+\\), which a webhook cannot link`,
        ),
      );
    });

    it('takes at most 50 configurations: on creation, by PUT and by link-alert', async () => {
      const ids = await h.projectConfigurations(top, 10, 51);
      const fifty = ids.slice(0, 50);
      expect422(
        await create({ url, alertIds: ids }),
        /^alertIds: a webhook links at most 50 alert configurations \(51/,
      );
      const record = await created({ url, alertIds: [...fifty, ...fifty] });
      expect(record.alertIds).toEqual(fifty);
      expect422(
        await h.send('PUT', `/v2/api/webhooks/${record.id}`, topToken, { alertIds: ids }),
        /^alertIds: a webhook links at most 50/,
      );
      expect422(
        await h.send('POST', `/v2/api/webhooks/${record.id}/link-alert?alertId=${ids[50]}`, topToken),
        /^alertId: a webhook links at most 50 alert configurations \(51 after this change\)/,
      );
      // Linking one of the fifty again changes nothing, so it is not the 51st.
      const again = await h.send(
        'POST',
        `/v2/api/webhooks/${record.id}/link-alert?alertId=${ids[0]}`,
        topToken,
      );
      expect(again.json()).toEqual((await h.get(`/v2/api/webhooks/${record.id}`, topToken)).json());
      // A configuration deleted since no longer counts.
      await h.deleteProjectedConfiguration(ids[1]);
      const linked = await h.send(
        'POST',
        `/v2/api/webhooks/${record.id}/link-alert?alertId=${ids[50]}`,
        topToken,
      );
      expect(linked.statusCode).toBe(200);
      expect(linked.json<WebhookAnswer>().alertIds).toHaveLength(50);
      expect(linked.json<WebhookAnswer>().alertIds).toContain(ids[50]);
      expect(linked.json<WebhookAnswer>().alertIds).not.toContain(ids[1]);
    });
  });

  describe('changing', () => {
    it('keeps what is left out, replaces alertIds, and persists isActive false', async () => {
      const record = await created({ url, alertIds: [linkable[0], linkable[1]] });
      const answer = await h.send('PUT', `/v2/api/webhooks/${record.id}`, topToken, { isActive: false });
      expect(answer.statusCode).toBe(200);
      expect(shapeProblems(answer.json(), webhookRecord)).toEqual([]);
      expect(answer.json()).toMatchObject({ url, isActive: false, alertIds: [linkable[0], linkable[1]] });
      expect(answer.body).not.toContain(record.secret!);

      const replaced = await h.send('PUT', `/v2/api/webhooks/${record.id}?alertIds=${linkable[2]}`, topToken);
      expect(replaced.json()).toMatchObject({ isActive: false, alertIds: [linkable[2]] });
      const fetched = (await h.get(`/v2/api/webhooks/${record.id}`, topToken)).json<WebhookAnswer>();
      expect(fetched).toEqual(replaced.json());
      expect(Date.parse(fetched.updatedAt)).toBeGreaterThan(Date.parse(record.updatedAt));
      expect(fetched.createdAt).toBe(record.createdAt);
    });

    it.each([
      [
        'a multipart body cut inside a value',
        'multipart/form-data; boundary=cut',
        '--cut\r\nContent-Disposition: form-data; name="isActive"\r\n\r\nfal',
      ],
      [
        'a multipart body whose last part is whole but has no closing boundary',
        'multipart/form-data; boundary=cut',
        '--cut\r\nContent-Disposition: form-data; name="isActive"\r\n\r\nfalse\r\n',
      ],
      [
        'a multipart body ending in a delimiter without its closing dashes',
        'multipart/form-data; boundary=cut',
        '--cut\r\nContent-Disposition: form-data; name="isActive"\r\n\r\nfalse\r\n--cut',
      ],
      [
        'a form whose escapes decode to no UTF-8 text',
        'application/x-www-form-urlencoded',
        'isActive=false&url=https://changed.example.com/%ED%A0%80',
      ],
      [
        'a form with a malformed escape',
        'application/x-www-form-urlencoded',
        'isActive=false&url=https://changed.example.com/%ZZ',
      ],
    ])('answers %s with 422 and changes nothing', async (_what, contentType, payload) => {
      const record = await created({ url, alertIds: [linkable[0]] });
      const answer = await h.app.inject({
        method: 'PUT',
        url: `/v2/api/webhooks/${record.id}`,
        headers: { authorization: `Bearer ${topToken}`, 'content-type': contentType },
        payload,
      });
      expect({ status: answer.statusCode, body: answer.json() }).toMatchObject({
        status: 422,
        body: { type: 'VALIDATION_ERROR', code: 'INVALID_INPUT' },
      });
      const fetched = (await h.get(`/v2/api/webhooks/${record.id}`, topToken)).json<WebhookAnswer>();
      expect(fetched).toEqual(withoutSecret(record));
    });

    it('refuses alertIds [] on an alert-scoped webhook and another isGlobal; takes an equal isGlobal', async () => {
      const record = await created({ url, alertIds: [linkable[0]] });
      const path = `/v2/api/webhooks/${record.id}`;
      expect422(
        await h.send('PUT', path, topToken, { alertIds: [] }),
        /^alertIds: an alert-scoped webhook needs at least one/,
      );
      expect422(
        await h.send('PUT', `${path}?isGlobal=true`, topToken),
        /^isGlobal: cannot be changed \(the webhook is alert-scoped\)/,
      );
      expect422(
        await h.send('PUT', path, topToken, { url: 'http://' }),
        /^url: must be an absolute http or https URL/,
      );
      expect422(
        await h.send('PUT', path, topToken, { alertIds: [outsiderConfiguration] }),
        new RegExp(`^alertIds: ${outsiderConfiguration} is not an alert configuration of company ${top}$`),
      );
      // Nothing of the refused changes was applied.
      expect((await h.get(path, topToken)).json()).toMatchObject({
        url,
        alertIds: [linkable[0]],
        isGlobal: false,
      });

      const equal = await h.send('PUT', path, topToken, {
        isGlobal: false,
        url: 'https://other.example.com/x',
      });
      expect(equal.json()).toMatchObject({ isGlobal: false, url: 'https://other.example.com/x' });

      const global = await created({ url, isGlobal: true, alertIds: [linkable[0]] });
      const emptied = await h.send('PUT', `/v2/api/webhooks/${global.id}`, topToken, { alertIds: [] });
      expect(emptied.json()).toMatchObject({ isGlobal: true, alertIds: [] });
      expect422(
        await h.send('PUT', `/v2/api/webhooks/${global.id}`, topToken, { isGlobal: false }),
        /^isGlobal: cannot be changed \(the webhook is global\)/,
      );
    });

    it('links one more configuration by link-alert, in any input form, and a linked one again without change', async () => {
      const record = await created({ url, alertIds: [linkable[0]] });
      const path = `/v2/api/webhooks/${record.id}/link-alert`;
      const byQuery = await h.post(`${path}?alertId=${linkable[3]}`, topToken);
      expect(byQuery.statusCode).toBe(200);
      expect(shapeProblems(byQuery.json(), webhookRecord)).toEqual([]);
      expect(byQuery.body).not.toContain(record.secret!);
      const byForm = await h.sendForm('POST', path, topToken, [['alertId', String(linkable[1])]]);
      const byJson = await h.send('POST', path, topToken, { alertId: linkable[2] });
      expect(byForm.json()).toMatchObject({ alertIds: [linkable[0], linkable[1], linkable[3]] });
      expect(byJson.json()).toMatchObject({ alertIds: [linkable[0], linkable[1], linkable[2], linkable[3]] });

      const again = await h.sendMultipart('POST', path, topToken, [['alertId', String(linkable[2])]]);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(byJson.json());

      expect422(await h.post(path, topToken), /^alertId: is required/);
      expect422(await h.post(`${path}?alertId=abc`, topToken), /^alertId: /);
      expect422(
        await h.post(`${path}?alertId=${subConfiguration}`, topToken),
        new RegExp(`^alertId: ${subConfiguration} is not an alert configuration of company ${top}$`),
      );
      const [powerCut] = await h.projectConfigurations(top, 3);
      expect422(
        await h.post(`${path}?alertId=${powerCut}`, topToken),
        /^alertId: \d+ is an alert configuration of type 3 \(PowerCut\)/,
      );
    });

    it('shows only live configurations: one deleted through alert-engine drops out of alertIds', async () => {
      const configuration = await h.newConfiguration(top, topToken, 5);
      const record = await created({ url, alertIds: [linkable[0], configuration] });
      const deleted = await h.send('DELETE', `/v2/api/companies/${top}/alerts/${configuration}`, topToken);
      expect(deleted.statusCode).toBe(200);
      await waitFor(
        async () =>
          (await h.get(`/v2/api/webhooks/${record.id}`, topToken)).json<WebhookAnswer>().alertIds.length ===
          1,
        { timeoutMs: 5_000, description: 'the deleted configuration to leave the webhook' },
      );
      expect((await h.get(`/v2/api/webhooks/${record.id}`, topToken)).json()).toMatchObject({
        alertIds: [linkable[0]],
      });
      // Linking it again is refused like any deleted configuration.
      expect422(
        await h.post(`/v2/api/webhooks/${record.id}/link-alert?alertId=${configuration}`, topToken),
        new RegExp(`^alertId: ${configuration} is not an alert configuration of company ${top}$`),
      );
    });
  });

  describe('deleting', () => {
    it('answers the webhook as it was, cancels its pending deliveries, and 404s on every route after', async () => {
      const record = await created({ url, alertIds: [linkable[0]] });
      const kept = await created({ url, alertIds: [linkable[0]] });
      const pending = await h.insertDelivery(record.id, 'pending');
      const delivered = await h.insertDelivery(record.id, 'delivered');
      const otherPending = await h.insertDelivery(kept.id, 'pending');

      const answer = await h.send('DELETE', `/v2/api/webhooks/${record.id}`, topToken);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual(withoutSecret(record));
      expect(answer.body).not.toContain(record.secret!);

      expect(await h.deliveryOf(pending)).toEqual({
        status: 'cancelled',
        outcome: 'webhook deleted',
        finished_at: expect.any(Date),
        next_attempt_at: null,
      });
      expect(await h.deliveryOf(delivered)).toMatchObject({ status: 'delivered', outcome: null });
      expect(await h.deliveryOf(otherPending)).toMatchObject({ status: 'pending' });
      expect((await h.storedWebhook(record.id)).deleted_at).toEqual(expect.any(Date));

      const path = `/v2/api/webhooks/${record.id}`;
      expect404(await h.get(path, topToken));
      expect404(await h.send('PUT', path, topToken, { isActive: true }));
      expect404(await h.send('DELETE', path, topToken));
      expect404(await h.post(`${path}/link-alert?alertId=${linkable[1]}`, topToken));
      const listed = (await h.get('/v2/api/webhooks?pageSize=500', topToken)).json<{
        items: WebhookAnswer[];
      }>();
      expect(listed.items.map((item) => item.id)).toContain(kept.id);
      expect(listed.items.map((item) => item.id)).not.toContain(record.id);
    });
  });

  describe('listing', () => {
    it('pages the company’s webhooks by id, in the V2 envelope, without secrets', async () => {
      const { companyId, token } = await h.newTenant({ name: 'Lister' });
      const [configuration] = await h.projectConfigurations(companyId, 5);
      const records: WebhookAnswer[] = [];
      for (let index = 0; index < 3; index += 1) {
        records.push(await created({ url: `${url}/${index}`, alertIds: [configuration] }, token));
      }
      const first = await h.get('/v2/api/webhooks?page=1&pageSize=2', token);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({
        items: records.slice(0, 2).map(withoutSecret),
        totalResults: 3,
        lastResultIndex: 2,
        currentPage: 1,
        numberOfPages: 2,
      });
      const second = await h.get('/v2/api/webhooks?page=2&pageSize=2', token);
      expect(second.json()).toMatchObject({
        items: [{ id: records[2].id }],
        lastResultIndex: 3,
        currentPage: 2,
      });
      for (const record of records) {
        expect(first.body + second.body).not.toContain(record.secret!);
        expect(shapeProblems(second.json<{ items: WebhookAnswer[] }>().items[0], webhookRecord)).toEqual([]);
      }
      expect422(await h.get('/v2/api/webhooks?pageSize=501', token), /^pageSize: /);
    });
  });

  describe('tenant isolation', () => {
    it('answers 404 for another company’s webhook on every route, and never lists it', async () => {
      const foreign = await created({ url, alertIds: [outsiderConfiguration] }, outsiderToken);
      const path = `/v2/api/webhooks/${foreign.id}`;
      expect404(await h.get(path, topToken));
      expect404(await h.send('PUT', path, topToken, { isActive: false }));
      // Even with a change that would be refused: the webhook is not the caller's to be told about.
      expect404(await h.send('PUT', path, topToken, { isGlobal: true, url: 'ftp://x' }));
      expect404(await h.post(`${path}/link-alert?alertId=${linkable[0]}`, topToken));
      expect404(await h.send('DELETE', path, topToken));
      expect404(await h.get('/v2/api/webhooks/2147483647', topToken));
      const listed = (await h.get('/v2/api/webhooks?pageSize=500', topToken)).json<{
        items: WebhookAnswer[];
      }>();
      expect(listed.items.length).toBeGreaterThan(0);
      expect(listed.items.map((item) => item.id)).not.toContain(foreign.id);

      // Untouched by all of that.
      expect((await h.get(path, outsiderToken)).json()).toMatchObject({
        isActive: true,
        alertIds: [outsiderConfiguration],
      });
    });

    it('keeps a parent and its sub-company apart: neither lists nor reaches the other’s webhooks', async () => {
      const subWebhook = await created({ url, alertIds: [subConfiguration] }, subToken);
      const topWebhook = await created({ url, alertIds: [linkable[0]] });
      expect404(await h.get(`/v2/api/webhooks/${subWebhook.id}`, topToken));
      expect404(await h.send('PUT', `/v2/api/webhooks/${subWebhook.id}`, topToken, { isActive: false }));
      expect404(
        await h.post(`/v2/api/webhooks/${subWebhook.id}/link-alert?alertId=${linkable[0]}`, topToken),
      );
      expect404(await h.send('DELETE', `/v2/api/webhooks/${subWebhook.id}`, topToken));
      expect404(await h.get(`/v2/api/webhooks/${topWebhook.id}`, subToken));

      const topList = (await h.get('/v2/api/webhooks?pageSize=500', topToken)).json<{
        items: WebhookAnswer[];
      }>();
      const subList = (await h.get('/v2/api/webhooks?pageSize=500', subToken)).json<{
        items: WebhookAnswer[];
      }>();
      expect(topList.items.map((item) => item.id)).toContain(topWebhook.id);
      expect(topList.items.map((item) => item.id)).not.toContain(subWebhook.id);
      expect(subList.items.map((item) => item.id)).toEqual([subWebhook.id]);
    });

    it('answers 403 INVALID_SCOPE to a token without webhooks:manage, on every route', async () => {
      const record = await created({ url, alertIds: [linkable[0]] });
      const path = `/v2/api/webhooks/${record.id}`;
      const answers = [
        await create({ url, alertIds: [linkable[0]] }, alertsOnlyToken),
        await h.get('/v2/api/webhooks', alertsOnlyToken),
        await h.get(path, alertsOnlyToken),
        await h.send('PUT', path, alertsOnlyToken, { isActive: false }),
        await h.post(`${path}/link-alert?alertId=${linkable[1]}`, alertsOnlyToken),
        await h.send('DELETE', path, alertsOnlyToken),
      ];
      for (const answer of answers) {
        expect({ status: answer.statusCode, body: answer.json() }).toEqual({
          status: 403,
          body: expect.objectContaining({ type: 'AUTHORIZATION', code: 'INVALID_SCOPE' }),
        });
      }
      expect((await h.get(path, topToken)).json()).toEqual(withoutSecret(record));
    });
  });
});
