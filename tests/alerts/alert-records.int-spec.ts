import { Actions } from '@fleet/contracts';
import { TestVehicle } from '@fleet/testing';
import { envelope, shapeProblems } from '../telemetry/record-schemas';
import { AlertRoutesContext } from './alert-routes-context';
import { alertRecordV1, alertRecordV2 } from './alert-schemas';

type RecordItem = { id: number; isRead: boolean; vehicleId: number; utcTime: string; alertTypeId?: number };

const ids = (items: { id: number }[]) => items.map((item) => item.id);

describe('alert records and their read state, V2 and V1 (real PostgreSQL)', () => {
  let h: AlertRoutesContext;
  let top: number;
  let sub: number;
  let sibling: number;
  let topToken: string;
  let subToken: string;
  let allowlistToken: string;
  let noAlertsToken: string;
  const vehicles: Record<'van' | 'truck' | 'subVan' | 'siblingVan', TestVehicle> = {} as never;
  const configurations: Record<'topIgnition' | 'topSpeed' | 'sub' | 'sibling', number> = {
    topIgnition: 0,
    topSpeed: 0,
    sub: 0,
    sibling: 0,
  };
  /** The top company's records, newest first, as the engine would have written them. */
  const topRecords: { id: number; utcTime: Date; vehicleId: number; alertTypeId: number; isRead: boolean }[] =
    [];
  let subRecord: number;
  let siblingRecord: number;
  /** 2026-03-29 is the night Berlin moves to summer time. */
  const base = Date.parse('2026-03-29T00:30:00Z');

  beforeAll(async () => {
    h = await AlertRoutesContext.open();
    top = await h.newCompany({ name: 'Top', timeZone: 'Europe/Berlin', dateTimeFormat: 'dd.MM.yyyy HH:mm' });
    sub = await h.newCompany({ name: 'Sub', parentId: top });
    sibling = await h.newCompany({ name: 'Sibling', parentId: top });
    vehicles.van = await h.newProjectedVehicle('Van', [top]);
    vehicles.truck = await h.newProjectedVehicle('Truck', [top]);
    vehicles.subVan = await h.newProjectedVehicle('Sub van', [sub, top]);
    vehicles.siblingVan = await h.newProjectedVehicle('Sibling van', [sibling]);
    topToken = await h.token(await h.newApiKey(top));
    subToken = await h.token(await h.newApiKey(sub));
    allowlistToken = await h.token(await h.newApiKey(top, { vehicleIds: [vehicles.van.id] }));
    noAlertsToken = await h.token(
      await h.newApiKey(top, { actions: [Actions.writeAlerts, Actions.readVehicles] }),
    );

    const create = async (companyId: number, alertTypeId: number) => {
      const response = await h.send('POST', `/v2/api/companies/${companyId}/alerts`, topToken, {
        name: `type ${alertTypeId}`,
        alertTypeId,
      });
      expect(response.statusCode).toBe(201);
      return response.json<{ id: number }>().id;
    };
    configurations.topIgnition = await create(top, 5);
    configurations.topSpeed = await create(top, 10);
    configurations.sub = await create(sub, 8);
    configurations.sibling = await create(sibling, 8);

    // Seven records of top, an hour apart, over the DST change; two at the same instant (ids decide).
    const plan: [number, TestVehicle, 'topIgnition' | 'topSpeed', boolean][] = [
      [0, vehicles.van, 'topIgnition', false],
      [1, vehicles.truck, 'topSpeed', false],
      [2, vehicles.van, 'topSpeed', true],
      [2, vehicles.truck, 'topIgnition', false],
      [3, vehicles.subVan, 'topIgnition', false],
      [4, vehicles.van, 'topIgnition', false],
      [26, vehicles.truck, 'topSpeed', false],
    ];
    for (const [hours, vehicle, configuration, isRead] of plan) {
      const utcTime = new Date(base + hours * 3_600_000);
      const alertTypeId = configuration === 'topIgnition' ? 5 : 10;
      const id = await h.insertRecord({
        companyId: top,
        configurationId: configurations[configuration],
        alertTypeId,
        vehicle,
        utcTime,
        isRead,
      });
      topRecords.push({ id, utcTime, vehicleId: vehicle.id, alertTypeId, isRead });
    }
    topRecords.sort((a, b) => b.utcTime.getTime() - a.utcTime.getTime() || b.id - a.id);
    subRecord = await h.insertRecord({
      companyId: sub,
      configurationId: configurations.sub,
      alertTypeId: 8,
      vehicle: vehicles.subVan,
      utcTime: new Date(base),
      address: null,
    });
    siblingRecord = await h.insertRecord({
      companyId: sibling,
      configurationId: configurations.sibling,
      alertTypeId: 8,
      vehicle: vehicles.siblingVan,
      utcTime: new Date(base),
    });
  });

  afterAll(async () => {
    await h?.close();
  });

  const recordsOf = (companyId: number, query = '', token = topToken) =>
    h.get(`/v2/api/companies/${companyId}/alert-records${query}`, token);

  /** Resets the read flags to the plan's. */
  async function resetReadFlags(): Promise<void> {
    for (const record of topRecords) {
      await h.database.pool.query('UPDATE alerts.records SET is_read = $2 WHERE id = $1', [
        record.id,
        record.isRead,
      ]);
    }
    await h.database.pool.query('UPDATE alerts.records SET is_read = false WHERE id = ANY($1)', [
      [subRecord, siblingRecord],
    ]);
  }

  describe('V2 listing', () => {
    it("lists the company's own records newest first (ids break ties), in the V2 record", async () => {
      const response = await recordsOf(top);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(shapeProblems(body, envelope)).toEqual([]);
      expect(ids(body.items)).toEqual(ids(topRecords));
      for (const item of body.items) expect(shapeProblems(item, alertRecordV2)).toEqual([]);
      const first = body.items.find((item: RecordItem) => item.id === topRecords[topRecords.length - 1].id);
      expect(first).toEqual({
        id: topRecords[topRecords.length - 1].id,
        utcTime: '2026-03-29T00:30:00',
        userTime: '2026-03-29T01:30:00',
        userTimeFormatted: '29.03.2026 01:30',
        alertTypeId: 5,
        alertType: 'IgnitionOn',
        description: 'Alert of type 5',
        vehicleId: vehicles.van.id,
        vehicleName: 'Van',
        address: 'Unter den Linden 1, Berlin',
        lat: 52.52,
        lng: 13.405,
        isRead: false,
        alertId: configurations.topIgnition,
      });
      // After the change to summer time Berlin is two hours ahead.
      const later = body.items.find((item: RecordItem) => item.utcTime === '2026-03-29T01:30:00');
      expect(later.userTime).toBe('2026-03-29T03:30:00');
      // The sub-company's record (its own configuration) is not the top company's.
      expect(ids(body.items)).not.toContain(subRecord);
    });

    it('pages newest first', async () => {
      const first = (await recordsOf(top, '?pageSize=3')).json();
      expect(first).toMatchObject({ totalResults: 7, numberOfPages: 3, currentPage: 1, lastResultIndex: 3 });
      const third = (await recordsOf(top, '?pageSize=3&page=3')).json();
      expect(ids(first.items)).toEqual(ids(topRecords.slice(0, 3)));
      expect(ids(third.items)).toEqual(ids(topRecords.slice(6)));
      expect(third.lastResultIndex).toBe(7);
      // Pages of 4 split the two records of one instant: the later id comes first, on page 1.
      const split = [
        (await recordsOf(top, '?pageSize=4')).json(),
        (await recordsOf(top, '?pageSize=4&page=2')).json(),
      ];
      expect(split.map((page) => ids(page.items))).toEqual([
        ids(topRecords.slice(0, 4)),
        ids(topRecords.slice(4)),
      ]);
      const past = (await recordsOf(top, '?pageSize=3&page=4')).json();
      expect(past).toMatchObject({ items: [], totalResults: 7, lastResultIndex: 0 });
    });

    it('filters by time, vehicle, type and read state (extensions)', async () => {
      const from = new Date(base + 2 * 3_600_000).toISOString();
      const to = new Date(base + 4 * 3_600_000).toISOString();
      const cases: [string, (record: (typeof topRecords)[number]) => boolean][] = [
        [`?from=${from}`, (r) => r.utcTime.getTime() >= base + 2 * 3_600_000],
        [
          `?from=${from}&to=${to}`,
          (r) => r.utcTime.getTime() >= base + 2 * 3_600_000 && r.utcTime.getTime() < base + 4 * 3_600_000,
        ],
        [`?vehicleId=${vehicles.truck.id}`, (r) => r.vehicleId === vehicles.truck.id],
        ['?alertTypeId=10', (r) => r.alertTypeId === 10],
        ['?isRead=true', (r) => r.isRead],
        ['?isRead=FALSE&alertTypeId=5', (r) => !r.isRead && r.alertTypeId === 5],
      ];
      for (const [query, keep] of cases) {
        const response = await recordsOf(top, query);
        expect({ query, status: response.statusCode }).toEqual({ query, status: 200 });
        expect({ query, ids: ids(response.json().items) }).toEqual({
          query,
          ids: ids(topRecords.filter(keep)),
        });
        expect(response.json().totalResults).toBe(topRecords.filter(keep).length);
      }
    });

    it('refuses filters it cannot read with a 422 naming them', async () => {
      const cases: [string, RegExp][] = [
        ['?from=yesterday', /^from: /],
        ['?to=2026-02-30T00:00:00Z', /^to: /],
        [
          `?from=${new Date(base).toISOString()}&to=${new Date(base).toISOString()}`,
          /^from: must be before to/,
        ],
        ['?vehicleId=0', /^vehicleId: /],
        ['?alertTypeId=4', /^alertTypeId: /],
        ['?isRead=yes', /^isRead: /],
        ['?pageSize=501', /^pageSize: /],
      ];
      for (const [query, expected] of cases) {
        const response = await recordsOf(top, query);
        expect({ query, status: response.statusCode }).toEqual({ query, status: 422 });
        expect({ query, description: response.json().description }).toEqual({
          query,
          description: expect.stringMatching(expected),
        });
      }
    });

    it("answers 404 for a parent's, a sibling's or an unknown company, and lists a sub-company's records", async () => {
      for (const companyId of [top, sibling, 999_999]) {
        const response = await recordsOf(companyId, '', subToken);
        expect({ companyId, status: response.statusCode }).toEqual({ companyId, status: 404 });
        expect(response.json()).toMatchObject({ type: 'RESOURCE', code: 'NOT_FOUND' });
      }
      expect(ids((await recordsOf(sub, '', topToken)).json().items)).toEqual([subRecord]);
      expect(ids((await recordsOf(sub, '', subToken)).json().items)).toEqual([subRecord]);
    });

    it("shows a token with an allowlist only its vehicles' records", async () => {
      const response = await recordsOf(top, '', allowlistToken);
      expect(ids(response.json().items)).toEqual(
        ids(topRecords.filter((r) => r.vehicleId === vehicles.van.id)),
      );
      expect(response.json().totalResults).toBe(3);
    });
  });

  describe('read state', () => {
    beforeEach(resetReadFlags);

    const readStatus = (id: number, date: string, query = '?isRead=true', token = topToken) =>
      h.send('PUT', `/v2/api/alerts/${id}/${date}/update-read-status${query}`, token);

    it('marks one record read or unread on its UTC date and answers it as it is now', async () => {
      const record = topRecords.find((r) => r.utcTime.getTime() === base + 26 * 3_600_000)!;
      const marked = await readStatus(record.id, '2026-03-30');
      expect(marked.statusCode).toBe(200);
      expect(shapeProblems(marked.json(), alertRecordV2)).toEqual([]);
      expect(marked.json()).toMatchObject({ id: record.id, isRead: true, utcTime: '2026-03-30T02:30:00' });
      const listed = (await recordsOf(top, '?isRead=true')).json();
      expect(ids(listed.items)).toContain(record.id);

      // A date-time on that date names it too, in UTC whatever its offset.
      const unmarked = await readStatus(
        record.id,
        encodeURIComponent('2026-03-30T04:00:00+02:00'),
        '?isRead=false',
      );
      expect(unmarked.json()).toMatchObject({ id: record.id, isRead: false });
      expect((await readStatus(record.id, '2026-03-30T23:59:59Z')).json().isRead).toBe(true);
    });

    it('takes isRead from a JSON or form body too', async () => {
      const record = topRecords[0];
      const url = `/v2/api/alerts/${record.id}/2026-03-30/update-read-status`;
      const json = await h.send('PUT', url, topToken, { isRead: true });
      expect(json.json()).toMatchObject({ isRead: true });
      const form = await h.app.inject({
        method: 'PUT',
        url,
        headers: { authorization: `Bearer ${topToken}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'isRead=false',
      });
      expect(form.statusCode).toBe(200);
      expect(form.json()).toMatchObject({ isRead: false });
    });

    it('answers 404 for another date, an unknown id, or a record the token does not reach', async () => {
      const record = topRecords[0];
      const cases: [string, number, string, string][] = [
        ['the day before', record.id, '2026-03-29', topToken],
        ['the day after, as a date-time', record.id, '2026-03-31T00:00:00Z', topToken],
        ['an unknown id', 999_999_999, '2026-03-30', topToken],
        ["a sibling's record", siblingRecord, '2026-03-29', subToken],
        ["the parent's record", record.id, '2026-03-30', subToken],
        ['a vehicle off the allowlist', record.id, '2026-03-30', allowlistToken],
      ];
      for (const [what, id, date, token] of cases) {
        const response = await readStatus(id, date, '?isRead=true', token);
        expect({ what, status: response.statusCode }).toEqual({ what, status: 404 });
        expect(response.json()).toMatchObject({ type: 'RESOURCE', code: 'NOT_FOUND' });
      }
      const { rows } = await h.database.pool.query('SELECT is_read FROM alerts.records WHERE id = ANY($1)', [
        [record.id, siblingRecord],
      ]);
      expect(rows.map((row) => row.is_read)).toEqual([false, false]);
      // A record of a sub-company is within the token's reach.
      expect((await readStatus(subRecord, '2026-03-29')).json()).toMatchObject({
        id: subRecord,
        isRead: true,
      });
    });

    it('answers 422 for an id, date or isRead it cannot read', async () => {
      const record = topRecords[0];
      const cases: [string, string, string, RegExp][] = [
        ['abc', '2026-03-30', '?isRead=true', /^id: /],
        [String(record.id), 'yesterday', '?isRead=true', /^date: "yesterday" is not a date/],
        [String(record.id), '2026-02-30', '?isRead=true', /^date: "2026-02-30" is not a valid date/],
        [String(record.id), '2026-03-30', '', /^isRead: is required/],
        [String(record.id), '2026-03-30', '?isRead=maybe', /^isRead: /],
      ];
      for (const [id, date, query, expected] of cases) {
        const response = await h.send(
          'PUT',
          `/v2/api/alerts/${id}/${date}/update-read-status${query}`,
          topToken,
        );
        expect({ id, date, query, status: response.statusCode }).toEqual({ id, date, query, status: 422 });
        expect({ id, date, query, description: response.json().description }).toEqual({
          id,
          date,
          query,
          description: expect.stringMatching(expected),
        });
      }
    });

    it('marks every unread record of a company read, of the allowlisted vehicles only, and counts them', async () => {
      const url = (companyId: number) => `/v2/api/companies/${companyId}/set-all-alerts-read`;
      const restricted = await h.send('PUT', url(top), allowlistToken);
      expect(restricted.statusCode).toBe(200);
      expect(restricted.json()).toEqual({
        updated: topRecords.filter((r) => r.vehicleId === vehicles.van.id && !r.isRead).length,
      });
      const all = await h.send('PUT', url(top), topToken);
      expect(all.json()).toEqual({
        updated: topRecords.filter((r) => r.vehicleId !== vehicles.van.id && !r.isRead).length,
      });
      expect((await h.send('PUT', url(top), topToken)).json()).toEqual({ updated: 0 });
      // Only the company's own records: the sub-company's and the sibling's stay unread.
      const { rows } = await h.database.pool.query('SELECT is_read FROM alerts.records WHERE id = ANY($1)', [
        [subRecord, siblingRecord],
      ]);
      expect(rows.map((row) => row.is_read)).toEqual([false, false]);
      expect((await h.send('PUT', url(sub), topToken)).json()).toEqual({ updated: 1 });
      for (const companyId of [top, sibling, 999_999]) {
        expect((await h.send('PUT', url(companyId), subToken)).statusCode).toBe(404);
      }
    });
  });

  describe('V1', () => {
    beforeEach(resetReadFlags);

    it('GetAlerts: at most num records from `from` on, newest first, in the V1 record', async () => {
      const response = await h.post(
        `/api/GetAlerts?compId=${top}&from=2026-03-29%2001:00:00&num=3`,
        topToken,
      );
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(ids(body)).toEqual(ids(topRecords.slice(0, 3)));
      for (const item of body) expect(shapeProblems(item, alertRecordV1)).toEqual([]);
      const all = (
        await h.post(`/api/GetAlerts?compId=${top}&from=2026-03-29T01:00:00Z&num=100`, topToken)
      ).json();
      expect(ids(all)).toEqual(ids(topRecords.filter((r) => r.utcTime.getTime() >= base + 1_800_000)));
      const oldest = (await h.post(`/api/GetAlerts?compId=${top}&from=2026-03-29&num=100`, topToken)).json();
      expect(oldest[oldest.length - 1]).toEqual({
        id: topRecords[topRecords.length - 1].id,
        utcTime: '2026-03-29T00:30:00Z',
        userTime: '2026-03-29T01:30:00+01:00',
        userTimeFormatted: '29.03.2026 01:30',
        alertType: 'IgnitionOn',
        description: 'Alert of type 5',
        vehicleId: vehicles.van.id,
        vehicleName: 'Van',
        address: 'Unter den Linden 1, Berlin',
        lat: 52.52,
        lng: 13.405,
        isRead: false,
      });
      const restricted = (
        await h.post(`/api/GetAlerts?compId=${top}&from=2026-03-29&num=100`, allowlistToken)
      ).json();
      expect(ids(restricted)).toEqual(ids(topRecords.filter((r) => r.vehicleId === vehicles.van.id)));
    });

    it('GetAlerts: 422 in the V1 body for num above 100 or a missing or unreadable parameter; 404 out of reach', async () => {
      const cases: [string, RegExp][] = [
        [`compId=${top}&from=2026-03-29&num=101`, /^num: /],
        [`compId=${top}&from=2026-03-29&num=0`, /^num: /],
        [`compId=${top}&from=2026-03-29`, /^num: /],
        [`compId=${top}&num=10`, /^from: /],
        [`from=2026-03-29&num=10`, /^compId: /],
        [`compId=${top}&from=soon&num=10`, /^from: "soon" is not a date/],
      ];
      for (const [query, expected] of cases) {
        const response = await h.post(`/api/GetAlerts?${query}`, topToken);
        expect({ query, status: response.statusCode }).toEqual({ query, status: 422 });
        expect({ query, body: response.json() }).toEqual({
          query,
          body: expect.objectContaining({
            Status: 'Error',
            Code: 'INVALID_INPUT',
            Message: expect.stringMatching(expected),
          }),
        });
      }
      for (const companyId of [top, sibling]) {
        const response = await h.post(`/api/GetAlerts?compId=${companyId}&from=2026-03-29&num=10`, subToken);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ Status: 'Error', Code: 'NOT_FOUND' });
      }
    });

    it('SetAlertAsRead marks one record read, with or without its date; 404 when out of reach or on another date', async () => {
      const [first, second] = topRecords.filter((r) => !r.isRead);
      const withDate = await h.post(
        `/api/SetAlertAsRead?id=${first.id}&date=${first.utcTime.toISOString().slice(0, 10)}`,
        topToken,
      );
      expect(withDate.statusCode).toBe(200);
      expect(shapeProblems(withDate.json(), alertRecordV1)).toEqual([]);
      expect(withDate.json()).toMatchObject({ id: first.id, isRead: true });
      expect((await h.post(`/api/SetAlertAsRead?id=${second.id}`, topToken)).json()).toMatchObject({
        id: second.id,
        isRead: true,
      });
      expect((await h.post(`/api/SetAlertAsRead?id=${siblingRecord}`, subToken)).statusCode).toBe(404);
      expect((await h.post(`/api/SetAlertAsRead?id=${second.id}&date=2020-01-01`, topToken)).statusCode).toBe(
        404,
      );
      expect((await h.post(`/api/SetAlertAsRead?id=x`, topToken)).statusCode).toBe(422);
    });

    it('SetAllAlertAsRead counts what it marked', async () => {
      const response = await h.post(`/api/SetAllAlertAsRead?compId=${top}`, topToken);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ updated: topRecords.filter((r) => !r.isRead).length });
      expect((await h.post(`/api/SetAllAlertAsRead?compId=${top}`, subToken)).statusCode).toBe(404);
    });
  });

  it('needs alerts:read on every record route, marking read included', async () => {
    const record = topRecords[0];
    const routes: [string, string][] = [
      ['GET', `/v2/api/companies/${top}/alerts`],
      ['GET', `/v2/api/companies/${top}/alert-records`],
      ['PUT', `/v2/api/companies/${top}/set-all-alerts-read`],
      ['PUT', `/v2/api/alerts/${record.id}/2026-03-30/update-read-status?isRead=true`],
      ['POST', `/api/GetAlerts?compId=${top}&from=2026-03-29&num=10`],
      ['POST', `/api/SetAlertAsRead?id=${record.id}`],
      ['POST', `/api/SetAllAlertAsRead?compId=${top}`],
    ];
    for (const [method, url] of routes) {
      const response = await h.send(method as 'GET', url, noAlertsToken);
      expect({ method, url, status: response.statusCode }).toEqual({ method, url, status: 403 });
    }
  });
});
