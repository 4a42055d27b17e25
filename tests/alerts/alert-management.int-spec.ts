import { Actions } from '@fleet/contracts';
import { TestVehicle } from '@fleet/testing';
import { shapeProblems } from '../telemetry/record-schemas';
import { AlertRoutesContext } from './alert-routes-context';
import { alertConfiguration, geofenceBase, square } from './alert-schemas';

describe('alert configurations and geofences: the management routes (real PostgreSQL)', () => {
  let h: AlertRoutesContext;
  // top has two sub-companies; outsider is another tenant.
  let top: number;
  let sub: number;
  let sibling: number;
  let outsider: number;
  let topToken: string;
  let subToken: string;
  let readOnlyToken: string;
  let writeOnlyToken: string;
  let allowlistToken: string;
  const vehicles: Record<'top' | 'topOther' | 'sibling', TestVehicle> = {} as never;
  /** A geofence of each company, made before the tests. */
  const geofences: Record<'top' | 'sub' | 'sibling', number> = { top: 0, sub: 0, sibling: 0 };

  beforeAll(async () => {
    h = await AlertRoutesContext.open();
    top = await h.newCompany({ name: 'Top', timeZone: 'Europe/Berlin' });
    sub = await h.newCompany({ name: 'Sub', parentId: top });
    sibling = await h.newCompany({ name: 'Sibling', parentId: top });
    outsider = await h.newCompany({ name: 'Outsider' });
    vehicles.top = await h.newProjectedVehicle('Top van', [top]);
    vehicles.topOther = await h.newProjectedVehicle('Top truck', [top]);
    vehicles.sibling = await h.newProjectedVehicle('Sibling van', [sibling]);
    topToken = await h.token(await h.newApiKey(top));
    subToken = await h.token(await h.newApiKey(sub));
    readOnlyToken = await h.token(await h.newApiKey(top, { actions: [Actions.readAlerts] }));
    writeOnlyToken = await h.token(await h.newApiKey(top, { actions: [Actions.writeAlerts] }));
    allowlistToken = await h.token(await h.newApiKey(top, { vehicleIds: [vehicles.top.id] }));
    for (const [key, companyId] of [
      ['top', top],
      ['sub', sub],
      ['sibling', sibling],
    ] as const) {
      const created = await h.send('POST', `/v2/api/companies/${companyId}/geofences`, topToken, {
        name: `${key} depot`,
        circle: { lat: 52.52, lng: 13.405, radiusM: 300 },
      });
      expect(created.statusCode).toBe(201);
      geofences[key] = created.json<{ id: number }>().id;
    }
  });

  afterAll(async () => {
    await h?.close();
  });

  const createConfiguration = (companyId: number, body: unknown, token = topToken) =>
    h.send('POST', `/v2/api/companies/${companyId}/alerts`, token, body);

  describe('configurations', () => {
    it('creates one with its defaults filled in, lists it, and raises the rule version', async () => {
      const before = await h.ruleVersion(top);
      const created = await createConfiguration(top, {
        name: '  Speeding  ',
        alertTypeId: 10,
        vehicleIds: [vehicles.top.id, vehicles.top.id],
        tags: ['night-shift'],
        settings: { maxSpeedKmh: 120 },
      });
      expect(created.statusCode).toBe(201);
      const body = created.json();
      expect(shapeProblems(body, alertConfiguration)).toEqual([]);
      expect(body).toEqual({
        id: expect.any(Number),
        name: 'Speeding',
        alertTypeId: 10,
        alertType: 'ExceedMaximumSpeed',
        vehicleIds: [vehicles.top.id],
        tags: ['night-shift'],
        settings: { maxSpeedKmh: 120, minDurationSeconds: 0 },
        isActive: true,
      });
      expect(await h.ruleVersion(top)).toBe(before + 1);

      const listed = await h.get(`/v2/api/companies/${top}/alerts?pageSize=500`, topToken);
      expect(listed.statusCode).toBe(200);
      expect(listed.json().items).toContainEqual(body);
    });

    it('refuses every broken rule with a 422 naming the field', async () => {
      const cases: [string, Record<string, unknown>, RegExp][] = [
        ['no name', { alertTypeId: 5 }, /^name: /],
        ['a blank name', { name: '   ', alertTypeId: 5 }, /^name: must be 1 to 100 characters/],
        ['a name of 101 characters', { name: 'x'.repeat(101), alertTypeId: 5 }, /^name: must be 1 to 100/],
        [
          'a control character in the name',
          { name: 'a\u0007b', alertTypeId: 5 },
          /^name: must not contain control/,
        ],
        ['a name that is no string', { name: 7, alertTypeId: 5 }, /^name: /],
        ['no type', { name: 'x' }, /^alertTypeId: /],
        [
          'a type the catalog does not have',
          { name: 'x', alertTypeId: 4 },
          /^alertTypeId: 4 is not an alert type/,
        ],
        ['a type given as text', { name: 'x', alertTypeId: '5' }, /^alertTypeId: /],
        [
          'a setting the type does not take',
          { name: 'x', alertTypeId: 5, settings: { maxRpm: 3 } },
          /^settings\.maxRpm: type 5 takes no such setting/,
        ],
        [
          'a setting out of bounds',
          { name: 'x', alertTypeId: 10, settings: { maxSpeedKmh: 0 } },
          /^settings\.maxSpeedKmh: must be between 1 and 500/,
        ],
        [
          'a setting that is no number',
          { name: 'x', alertTypeId: 10, settings: { maxSpeedKmh: 'fast' } },
          /^settings\.maxSpeedKmh: must be a number/,
        ],
        [
          'a fraction where whole numbers are needed',
          { name: 'x', alertTypeId: 14, settings: { idleMinutes: 1.5 } },
          /^settings\.idleMinutes: must be a whole number/,
        ],
        ['settings that are no object', { name: 'x', alertTypeId: 5, settings: [1] }, /^settings: /],
        [
          'a geofence type without its geofence',
          { name: 'x', alertTypeId: 1 },
          /^settings\.geofenceId: is required for type 1/,
        ],
        [
          'a geofence of a sub-company',
          { name: 'x', alertTypeId: 1, settings: { geofenceId: geofences.sub } },
          /^settings\.geofenceId: \d+ is not a geofence of company/,
        ],
        [
          'a geofence that does not exist',
          { name: 'x', alertTypeId: 2, settings: { geofenceId: 999_999 } },
          /^settings\.geofenceId: 999999 is not a geofence of company/,
        ],
        [
          'a vehicle of another company',
          { name: 'x', alertTypeId: 5, vehicleIds: [vehicles.sibling.id] },
          /^vehicleIds: \d+ is not a vehicle of company/,
        ],
        [
          'a vehicle that does not exist',
          { name: 'x', alertTypeId: 5, vehicleIds: [999_999] },
          /^vehicleIds: 999999 is not a vehicle of company/,
        ],
        [
          '101 vehicles',
          { name: 'x', alertTypeId: 5, vehicleIds: Array.from({ length: 101 }, (_, i) => i + 1) },
          /^vehicleIds: /,
        ],
        [
          'a vehicle id that is no integer',
          { name: 'x', alertTypeId: 5, vehicleIds: ['a'] },
          /^vehicleIds: /,
        ],
        ['vehicle ids that are no array', { name: 'x', alertTypeId: 5, vehicleIds: 3 }, /^vehicleIds: /],
        ['an empty tag', { name: 'x', alertTypeId: 5, tags: [''] }, /^tags\[0\]: must be 1 to 64 characters/],
        [
          'a tag of 65 characters',
          { name: 'x', alertTypeId: 5, tags: ['t'.repeat(65)] },
          /^tags\[0\]: must be 1 to 64/,
        ],
        [
          '101 tags',
          { name: 'x', alertTypeId: 5, tags: Array.from({ length: 101 }, (_, i) => `t${i}`) },
          /^tags: /,
        ],
        ['a tag that is no string', { name: 'x', alertTypeId: 5, tags: [5] }, /^tags: /],
        ['an active flag that is no boolean', { name: 'x', alertTypeId: 5, isActive: 'yes' }, /^isActive: /],
      ];
      const before = await h.ruleVersion(top);
      for (const [what, body, expected] of cases) {
        const response = await createConfiguration(top, body);
        expect({ what, status: response.statusCode }).toEqual({ what, status: 422 });
        expect({ what, type: response.json().type, code: response.json().code }).toEqual({
          what,
          type: 'VALIDATION_ERROR',
          code: 'INVALID_INPUT',
        });
        expect({ what, description: response.json().description }).toEqual({
          what,
          description: expect.stringMatching(expected),
        });
      }
      for (const body of [null, [], 'text', 5]) {
        const response = await createConfiguration(top, body);
        expect({ body, status: response.statusCode }).toEqual({ body, status: 422 });
      }
      expect(await h.ruleVersion(top)).toBe(before);
    });

    it('names every broken field at once', async () => {
      const response = await createConfiguration(top, {
        name: '',
        alertTypeId: 10,
        settings: { maxSpeedKmh: 900 },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().description).toMatch(/^name: .*; settings\.maxSpeedKmh: /);
    });

    it('keeps a vehicle outside the allowlist of a restricted token out of its bodies (422, as unknown)', async () => {
      const hidden = await createConfiguration(
        top,
        { name: 'x', alertTypeId: 5, vehicleIds: [vehicles.topOther.id] },
        allowlistToken,
      );
      expect(hidden.statusCode).toBe(422);
      expect(hidden.json().description).toBe(
        `vehicleIds: ${vehicles.topOther.id} is not a vehicle of company ${top}`,
      );
      const allowed = await createConfiguration(
        top,
        { name: 'x', alertTypeId: 5, vehicleIds: [vehicles.top.id] },
        allowlistToken,
      );
      expect(allowed.statusCode).toBe(201);
    });

    it('accepts a geofence configuration for a geofence of the same company', async () => {
      const response = await createConfiguration(top, {
        name: 'Depot entry',
        alertTypeId: 1,
        settings: { geofenceId: geofences.top },
        isActive: false,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        alertType: 'GeofenceEnter',
        settings: { geofenceId: geofences.top },
        isActive: false,
      });
    });

    it('changes only the fields a PUT gives; settings as a whole; a new type starts from its defaults', async () => {
      const created = (
        await createConfiguration(top, {
          name: 'Battery',
          alertTypeId: 9,
          tags: ['a'],
          settings: { thresholdV: 11 },
        })
      ).json<{ id: number }>();
      const url = `/v2/api/companies/${top}/alerts/${created.id}`;
      const before = await h.ruleVersion(top);

      const renamed = await h.send('PUT', url, topToken, { name: 'Battery low' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({
        name: 'Battery low',
        alertTypeId: 9,
        tags: ['a'],
        settings: { thresholdV: 11 },
        isActive: true,
      });
      expect(await h.ruleVersion(top)).toBe(before + 1);

      const resettled = await h.send('PUT', url, topToken, { settings: {}, isActive: false });
      expect(resettled.json()).toMatchObject({ settings: { thresholdV: 11.8 }, isActive: false });

      const retyped = await h.send('PUT', url, topToken, { alertTypeId: 14 });
      expect(retyped.json()).toMatchObject({
        alertTypeId: 14,
        alertType: 'Idling',
        settings: { idleMinutes: 5 },
      });
      const toGeofence = await h.send('PUT', url, topToken, { alertTypeId: 2 });
      expect(toGeofence.statusCode).toBe(422);
      expect(toGeofence.json().description).toMatch(/^settings\.geofenceId: is required for type 2/);
      const badName = await h.send('PUT', url, topToken, { name: ' ' });
      expect(badName.statusCode).toBe(422);
      expect(badName.json().description).toMatch(/^name: /);
      expect(await h.ruleVersion(top)).toBe(before + 3);

      const listed = await h.get(`/v2/api/companies/${top}/alerts?pageSize=500`, topToken);
      expect(listed.json().items).toContainEqual(retyped.json());
    });

    it('deletes one: it answers it once, then leaves the listing and answers 404', async () => {
      const created = (await createConfiguration(top, { name: 'Ignition', alertTypeId: 5 })).json<{
        id: number;
      }>();
      const url = `/v2/api/companies/${top}/alerts/${created.id}`;
      const before = await h.ruleVersion(top);
      const deleted = await h.send('DELETE', url, topToken);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toMatchObject({ id: created.id, name: 'Ignition' });
      expect(await h.ruleVersion(top)).toBe(before + 1);
      const { rows } = await h.database.pool.query(
        'SELECT deleted_at FROM alerts.configurations WHERE id = $1',
        [created.id],
      );
      expect(rows[0].deleted_at).toBeInstanceOf(Date);

      const listed = await h.get(`/v2/api/companies/${top}/alerts?pageSize=500`, topToken);
      expect(listed.json().items.map((item: { id: number }) => item.id)).not.toContain(created.id);
      expect((await h.send('DELETE', url, topToken)).statusCode).toBe(404);
      expect((await h.send('PUT', url, topToken, { name: 'again' })).statusCode).toBe(404);
    });

    it('pages the listing by id', async () => {
      const company = await h.newCompany({ name: 'Paged', parentId: top });
      const ids: number[] = [];
      for (const name of ['a', 'b', 'c']) {
        ids.push((await createConfiguration(company, { name, alertTypeId: 8 })).json<{ id: number }>().id);
      }
      const first = await h.get(`/v2/api/companies/${company}/alerts?pageSize=2`, topToken);
      expect(first.json()).toMatchObject({
        totalResults: 3,
        currentPage: 1,
        numberOfPages: 2,
        lastResultIndex: 2,
      });
      expect(first.json().items.map((item: { id: number }) => item.id)).toEqual(ids.slice(0, 2));
      const second = await h.get(`/v2/api/companies/${company}/alerts?page=2&pageSize=2`, topToken);
      expect(second.json().items.map((item: { id: number }) => item.id)).toEqual(ids.slice(2));
      const past = await h.get(`/v2/api/companies/${company}/alerts?page=3&pageSize=2`, topToken);
      expect(past.json()).toMatchObject({ items: [], totalResults: 3 });
    });
  });

  describe('geofences', () => {
    const geofencesOf = (companyId: number) => `/v2/api/companies/${companyId}/geofences`;

    it('creates circles and polygons and lists them in the shape they were given', async () => {
      const company = await h.newCompany({ name: 'Shapes', parentId: top });
      const before = await h.ruleVersion(company);
      const circle = await h.send('POST', geofencesOf(company), topToken, {
        name: ' Depot ',
        circle: { lat: 52.52, lng: 13.405, radiusM: 250, colour: 'red' },
      });
      expect(circle.statusCode).toBe(201);
      expect(shapeProblems(circle.json(), { ...geofenceBase, circle: 'object' })).toEqual([]);
      expect(circle.json()).toMatchObject({
        name: 'Depot',
        circle: { lat: 52.52, lng: 13.405, radiusM: 250 },
      });
      expect(circle.json().circle).not.toHaveProperty('colour');
      const polygon = await h.send('POST', geofencesOf(company), topToken, {
        name: 'Yard',
        polygon: { ...square(), bbox: [0, 0, 1, 1] },
      });
      expect(polygon.statusCode).toBe(201);
      expect(shapeProblems(polygon.json(), { ...geofenceBase, polygon: 'object' })).toEqual([]);
      expect(polygon.json().polygon).toEqual(square());
      expect(await h.ruleVersion(company)).toBe(before + 2);
      const { rows } = await h.database.pool.query('SELECT shape FROM alerts.geofences WHERE id = $1', [
        polygon.json().id,
      ]);
      expect(rows[0].shape).toEqual({ kind: 'polygon', polygon: square() });

      const listed = await h.get(`${geofencesOf(company)}?pageSize=1&page=2`, readOnlyToken);
      expect(listed.statusCode).toBe(200);
      expect(listed.json()).toMatchObject({ totalResults: 2, items: [polygon.json()] });
    });

    it('refuses a broken geofence with a 422 naming the field', async () => {
      const selfCrossing = {
        type: 'Polygon',
        coordinates: [
          [
            [13.4, 52.5],
            [13.41, 52.51],
            [13.41, 52.5],
            [13.4, 52.51],
            [13.4, 52.5],
          ],
        ],
      };
      const open = { type: 'Polygon', coordinates: [square().coordinates[0].slice(0, 4)] };
      const tooMany = {
        type: 'Polygon',
        coordinates: [
          [
            ...Array.from({ length: 1_000 }, (_, i) => [
              13 + Math.cos(i / 159) * 0.1,
              52 + Math.sin(i / 159) * 0.1,
            ]),
            [13.1, 52],
          ],
        ],
      };
      const cases: [string, Record<string, unknown>, RegExp][] = [
        ['no name', { circle: { lat: 1, lng: 1, radiusM: 10 } }, /^name: /],
        [
          'a name of 101 characters',
          { name: 'n'.repeat(101), circle: { lat: 1, lng: 1, radiusM: 10 } },
          /^name: /,
        ],
        ['no shape', { name: 'x' }, /^circle: a circle or a polygon is required/],
        [
          'both shapes',
          { name: 'x', circle: { lat: 1, lng: 1, radiusM: 10 }, polygon: square() },
          /^polygon: give a circle or a polygon, not both/,
        ],
        [
          'a latitude out of range',
          { name: 'x', circle: { lat: 91, lng: 1, radiusM: 10 } },
          /^circle\.lat: /,
        ],
        ['a radius of 0', { name: 'x', circle: { lat: 1, lng: 1, radiusM: 0 } }, /^circle\.radiusM: /],
        ['a circle that is no object', { name: 'x', circle: 'big' }, /^circle: /],
        [
          'a polygon of another type',
          { name: 'x', polygon: { ...square(), type: 'Point' } },
          /^polygon\.type: must be "Polygon"/,
        ],
        ['an open ring', { name: 'x', polygon: open }, /^polygon\.coordinates\[0\]: /],
        [
          'a self-crossing ring',
          { name: 'x', polygon: selfCrossing },
          /^polygon\.coordinates: the polygon intersects itself/,
        ],
        [
          'more than 1,000 vertices',
          { name: 'x', polygon: tooMany },
          /^polygon\.coordinates: 1001 vertices, at most 1000/,
        ],
        ['a position out of range', { name: 'x', polygon: square(200) }, /^polygon\.coordinates\[0\]\[0\]: /],
        [
          'an altitude that is no number',
          {
            name: 'x',
            polygon: {
              type: 'Polygon',
              coordinates: [square().coordinates[0].map(([lng, lat]) => [lng, lat, 'high'])],
            },
          },
          /^polygon\.coordinates\[0\]\[0\]: a third value/,
        ],
      ];
      for (const [what, body, expected] of cases) {
        const response = await h.send('POST', geofencesOf(top), topToken, body);
        expect({ what, status: response.statusCode }).toEqual({ what, status: 422 });
        expect({ what, description: response.json().description }).toEqual({
          what,
          description: expect.stringMatching(expected),
        });
      }
    });

    it('renames a geofence or replaces its shape, keeping what a PUT leaves out', async () => {
      const created = (
        await h.send('POST', geofencesOf(top), topToken, {
          name: 'Gate',
          circle: { lat: 52.5, lng: 13.4, radiusM: 50 },
        })
      ).json<{ id: number }>();
      const url = `${geofencesOf(top)}/${created.id}`;
      const renamed = await h.send('PUT', url, topToken, { name: 'North gate' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({
        name: 'North gate',
        circle: { lat: 52.5, lng: 13.4, radiusM: 50 },
      });
      const reshaped = await h.send('PUT', url, topToken, { polygon: square() });
      expect(reshaped.json()).toMatchObject({ name: 'North gate', polygon: square() });
      expect(reshaped.json()).not.toHaveProperty('circle');
      const broken = await h.send('PUT', url, topToken, { circle: { lat: 0, lng: 0, radiusM: -1 } });
      expect(broken.statusCode).toBe(422);
      expect(broken.json().description).toMatch(/^circle\.radiusM: /);
    });

    it('will not delete a geofence a configuration watches (409), and deletes it once none does', async () => {
      const geofence = (
        await h.send('POST', geofencesOf(top), topToken, {
          name: 'Watched',
          circle: { lat: 52.5, lng: 13.4, radiusM: 50 },
        })
      ).json<{ id: number }>();
      const watcher = (
        await createConfiguration(top, {
          name: 'Watcher',
          alertTypeId: 2,
          settings: { geofenceId: geofence.id },
          isActive: false,
        })
      ).json<{ id: number }>();
      const url = `${geofencesOf(top)}/${geofence.id}`;
      const refused = await h.send('DELETE', url, topToken);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ type: 'RESOURCE_CONFLICT', code: 'RESOURCE_IN_USE' });
      expect(refused.json().description).toContain(`configuration(s) ${watcher.id}`);

      expect(
        (await h.send('DELETE', `/v2/api/companies/${top}/alerts/${watcher.id}`, topToken)).statusCode,
      ).toBe(200);
      const before = await h.ruleVersion(top);
      const deleted = await h.send('DELETE', url, topToken);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toMatchObject({ id: geofence.id, name: 'Watched' });
      expect(await h.ruleVersion(top)).toBe(before + 1);
      expect((await h.send('DELETE', url, topToken)).statusCode).toBe(404);
      expect((await h.send('PUT', url, topToken, { name: 'again' })).statusCode).toBe(404);
      const listed = await h.get(`${geofencesOf(top)}?pageSize=500`, topToken);
      expect(listed.json().items.map((item: { id: number }) => item.id)).not.toContain(geofence.id);
      // A configuration cannot name it any more.
      const late = await createConfiguration(top, {
        name: 'Late',
        alertTypeId: 1,
        settings: { geofenceId: geofence.id },
      });
      expect(late.statusCode).toBe(422);
      expect(late.json().description).toMatch(/^settings\.geofenceId: /);
    });
  });

  describe('tenant isolation and actions', () => {
    let topConfiguration: number;
    let siblingConfiguration: number;

    beforeAll(async () => {
      topConfiguration = (await createConfiguration(top, { name: 'Top only', alertTypeId: 5 })).json<{
        id: number;
      }>().id;
      siblingConfiguration = (
        await createConfiguration(sibling, { name: 'Sibling only', alertTypeId: 5 })
      ).json<{
        id: number;
      }>().id;
    });

    /** Every management route of a company, with a body that would succeed. */
    const routesOf = (companyId: number, configurationId: number, geofenceId: number) =>
      [
        ['GET', `/v2/api/companies/${companyId}/alerts`, undefined],
        ['POST', `/v2/api/companies/${companyId}/alerts`, { name: 'x', alertTypeId: 5 }],
        ['PUT', `/v2/api/companies/${companyId}/alerts/${configurationId}`, { name: 'y' }],
        ['DELETE', `/v2/api/companies/${companyId}/alerts/${configurationId}`, undefined],
        ['GET', `/v2/api/companies/${companyId}/geofences`, undefined],
        [
          'POST',
          `/v2/api/companies/${companyId}/geofences`,
          { name: 'g', circle: { lat: 1, lng: 1, radiusM: 5 } },
        ],
        ['PUT', `/v2/api/companies/${companyId}/geofences/${geofenceId}`, { name: 'h' }],
        ['DELETE', `/v2/api/companies/${companyId}/geofences/${geofenceId}`, undefined],
      ] as const;

    it("gives 404 for a parent's, a sibling's, another tenant's and an unknown company on every route", async () => {
      for (const companyId of [top, sibling, outsider, 999_999]) {
        for (const [method, url, body] of routesOf(companyId, topConfiguration, geofences.top)) {
          const response = await h.send(method, url, subToken, body);
          expect({ method, url, status: response.statusCode }).toEqual({ method, url, status: 404 });
          expect(response.json()).toMatchObject({ type: 'RESOURCE', code: 'NOT_FOUND' });
        }
      }
    });

    it("gives 404 for another company's configuration or geofence through the token's own company", async () => {
      for (const [method, url, body] of routesOf(top, siblingConfiguration, geofences.sibling).filter(
        ([, url]) => /\/\d+$/.test(url),
      )) {
        const response = await h.send(method, url, topToken, body);
        expect({ method, url, status: response.statusCode }).toEqual({ method, url, status: 404 });
      }
    });

    it("reaches the companies below the token's own", async () => {
      const listed = await h.get(`/v2/api/companies/${sibling}/alerts`, topToken);
      expect(listed.statusCode).toBe(200);
      expect(listed.json().items.map((item: { id: number }) => item.id)).toContain(siblingConfiguration);
      expect((await h.get(`/v2/api/companies/${sub}/geofences`, topToken)).json().items).toHaveLength(1);
    });

    it('reads with alerts:read and changes with alerts:write', async () => {
      const routes = routesOf(top, topConfiguration, geofences.top);
      for (const [method, url, body] of routes) {
        const reader = (await h.send(method, url, readOnlyToken, body)).statusCode;
        const writer = (await h.send(method, url, writeOnlyToken, body)).statusCode;
        // A writer's change may still fail for its own reasons (a watched geofence: 409), never for scope.
        expect({ method, url, reader, writerForbidden: writer === 403 }).toEqual({
          method,
          url,
          reader: method === 'GET' ? 200 : 403,
          writerForbidden: method === 'GET',
        });
      }
      const forbidden = await h.send('POST', `/v2/api/companies/${top}/alerts`, readOnlyToken, {
        name: 'x',
        alertTypeId: 5,
      });
      expect(forbidden.json()).toMatchObject({ type: 'AUTHORIZATION', code: 'INVALID_SCOPE' });
    });
  });
});
