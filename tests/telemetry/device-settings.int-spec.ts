import { createHash } from 'node:crypto';
import { Actions } from '@fleet/contracts';
import { dataSourceOptions } from '@fleet/platform';
import {
  createDeviceSettingsAdmin,
  ingestSchema,
  listCommandProfiles,
} from '@fleet/telemetry-ingest-service';
import { formText, TestVehicle, waitFor } from '@fleet/testing';
import { DataSource } from 'typeorm';
import { TelemetryContext } from './telemetry-context';

interface SettingsAnswer {
  vehicleId: number;
  commandProfile: string | null;
  allowedNetworks: string[] | null;
  clockOffsetSeconds: number;
  secretRequired: boolean;
  updatedAt: string | null;
  secret?: string;
}

const UTC_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Operators' tracker settings (issue 29, docs/device-settings.md): the V2 extension routes
 * `GET`/`PUT /v2/api/vehicles/{id}/device-settings` with their authorization, and the admin CLI's
 * functions on the same table.
 */
describe('device settings: route and admin CLI (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let companyId: number;
  /** A key of the company granted `devices:manage`. */
  let token: string;

  beforeAll(async () => {
    h = await TelemetryContext.open();
    ({ companyId, token } = await h.newTenant({}, { actions: [Actions.manageDevices] }));
  });

  afterAll(async () => {
    await h?.close();
  });

  const newVehicle = () => h.newVehicle({ companyIds: [companyId] });
  const url = (vehicleId: number, query = '') =>
    `/v2/api/vehicles/${vehicleId}/device-settings${query ? `?${query}` : ''}`;
  const put = (vehicleId: number, query: string, bearer = token) =>
    h.send('PUT', url(vehicleId, query), bearer);
  const settingsOf = async (vehicleId: number, bearer = token) => {
    const response = await h.get(url(vehicleId), bearer);
    expect(response.statusCode).toBe(200);
    return response.json<SettingsAnswer>();
  };

  describe('the route', () => {
    it('answers the defaults for a vehicle nobody configured', async () => {
      const vehicle = await newVehicle();
      const response = await h.get(url(vehicle.id), token);
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-api-version']).toBe('2');
      expect(response.json()).toEqual({
        vehicleId: vehicle.id,
        commandProfile: null,
        allowedNetworks: null,
        clockOffsetSeconds: 0,
        secretRequired: false,
        insecureCommands: false,
        updatedAt: null,
      });
    });

    it('changes what is given and keeps the rest, from the query, a form or a JSON body (the query wins)', async () => {
      const vehicle = await newVehicle();
      const first = await put(vehicle.id, 'profile=teltonika-fmb-can&clockOffsetSeconds=-7200');
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ commandProfile: 'teltonika-fmb-can', clockOffsetSeconds: -7200 });

      const form = await h.sendForm('PUT', url(vehicle.id), token, [
        ['allowedNetworks', '10.64.0.0/16'],
        ['allowedNetworks', '100.70.12.0/24'],
      ]);
      expect(form.statusCode).toBe(200);
      const json = await h.send('PUT', url(vehicle.id, 'clockOffsetSeconds=3600'), token, {
        clockOffsetSeconds: 60,
        profile: 'gt06-relay',
      });
      expect(json.statusCode).toBe(200);
      const answer = json.json<SettingsAnswer>();
      expect(answer).toEqual({
        vehicleId: vehicle.id,
        commandProfile: 'gt06-relay',
        allowedNetworks: ['10.64.0.0/16', '100.70.12.0/24'],
        clockOffsetSeconds: 3600,
        secretRequired: false,
        insecureCommands: false,
        updatedAt: expect.stringMatching(UTC_Z),
      });
      expect(await settingsOf(vehicle.id)).toEqual(answer);

      const reset = await put(vehicle.id, 'profile=default&allowedNetworks=any&clockOffsetSeconds=0');
      expect(reset.json()).toMatchObject({
        commandProfile: null,
        allowedNetworks: null,
        clockOffsetSeconds: 0,
      });
    });

    it('answers a new secret once, never again, and stores only its SHA-256', async () => {
      const vehicle = await newVehicle();
      const created = await put(vehicle.id, 'newSecret=true');
      expect(created.statusCode).toBe(200);
      expect(created.headers['cache-control']).toBe('no-store');
      const { secret, ...record } = created.json<SettingsAnswer>();
      expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(record.secretRequired).toBe(true);

      const shown = await settingsOf(vehicle.id);
      expect(shown).toEqual(record);
      expect(Object.keys(shown)).not.toContain('secret');
      const { rows } = await h.database.pool.query(
        'SELECT to_jsonb(s) AS row FROM ingest.device_settings s WHERE vehicle_id = $1',
        [vehicle.id],
      );
      expect(rows[0].row.secret_hash).toBe(sha256(secret!));
      expect(JSON.stringify(rows[0].row)).not.toContain(secret!);

      // Another change leaves the secret alone and answers none; a new one replaces it.
      const other = await put(vehicle.id, 'clockOffsetSeconds=5');
      expect(other.json()).toMatchObject({ secretRequired: true });
      expect(Object.keys(other.json())).not.toContain('secret');
      const renewed = (await put(vehicle.id, 'newSecret=true')).json<SettingsAnswer>().secret;
      expect(renewed).not.toBe(secret);
      const cleared = await put(vehicle.id, 'clearSecret=true');
      expect(cleared.json()).toMatchObject({ secretRequired: false });
      expect(
        (
          await h.database.pool.query(
            'SELECT secret_hash FROM ingest.device_settings WHERE vehicle_id = $1',
            [vehicle.id],
          )
        ).rows[0].secret_hash,
      ).toBeNull();
    });

    it('answers 401 without a valid token, before anything else', async () => {
      const vehicle = await newVehicle();
      for (const method of ['GET', 'PUT'] as const) {
        const response = await h.app.inject({ method, url: url(vehicle.id, 'newSecret=true') });
        expect({ method, status: response.statusCode }).toEqual({ method, status: 401 });
        expect(response.json()).toMatchObject({ type: 'AUTHENTICATION', code: 'INVALID_CREDENTIALS' });
      }
      expect((await settingsOf(vehicle.id)).secretRequired).toBe(false);
    });

    it('answers 403 INVALID_SCOPE to a key without devices:manage, also to one without an action list', async () => {
      const vehicle = await newVehicle();
      const reader = await h.token(
        await h.newApiKey(companyId, { actions: [Actions.readVehicles, Actions.sendCommands] }),
      );
      const unrestricted = await h.token(await h.newApiKey(companyId));
      for (const bearer of [reader, unrestricted]) {
        for (const response of [
          await h.get(url(vehicle.id), bearer),
          await put(vehicle.id, 'newSecret=true', bearer),
        ]) {
          expect(response.statusCode).toBe(403);
          expect(response.json()).toMatchObject({ type: 'AUTHORIZATION', code: 'INVALID_SCOPE' });
        }
      }
      expect((await settingsOf(vehicle.id)).secretRequired).toBe(false);
    });

    it('answers 404 for another tenant’s vehicle, one outside the key’s allowlist and one that does not exist', async () => {
      const other = await h.newTenant({}, { actions: [Actions.manageDevices] });
      const foreign = await h.newVehicle({ companyIds: [other.companyId] });
      const mine = await newVehicle();
      const narrow = await h.token(
        await h.newApiKey(companyId, { actions: [Actions.manageDevices], vehicleIds: [mine.id] }),
      );
      const outside = await newVehicle();
      const cases: [string, number, string][] = [
        ['another tenant’s vehicle', foreign.id, token],
        ['a vehicle outside the allowlist', outside.id, narrow],
        ['a vehicle that does not exist', 2_000_000_000, token],
      ];
      for (const [what, vehicleId, bearer] of cases) {
        for (const response of [
          await h.get(url(vehicleId), bearer),
          await put(vehicleId, 'newSecret=true', bearer),
        ]) {
          expect({ what, status: response.statusCode }).toEqual({ what, status: 404 });
          expect(response.json()).toMatchObject({
            type: 'RESOURCE',
            code: 'NOT_FOUND',
            description: `Vehicle ${vehicleId} was not found.`,
          });
        }
      }
      // Nothing was written for them, and the allowlisted vehicle is reached.
      const { rows } = await h.database.pool.query(
        'SELECT vehicle_id FROM ingest.device_settings WHERE vehicle_id = ANY($1::int[])',
        [[foreign.id, outside.id]],
      );
      expect(rows).toEqual([]);
      expect((await settingsOf(mine.id, narrow)).vehicleId).toBe(mine.id);
    });

    it('reaches the vehicles of companies below the token’s, not above', async () => {
      const sub = await h.newCompany({ parentId: companyId });
      const subVehicle = await h.newVehicle({ companyIds: [sub] });
      expect((await settingsOf(subVehicle.id)).vehicleId).toBe(subVehicle.id);
      const subToken = await h.token(await h.newApiKey(sub, { actions: [Actions.manageDevices] }));
      const parentVehicle = await newVehicle();
      expect((await h.get(url(parentVehicle.id), subToken)).statusCode).toBe(404);
    });

    it.each<[string, string, RegExp]>([
      [
        'nothing to change',
        '',
        /^profile: nothing to change: give one or more of profile, allowedNetworks, clockOffsetSeconds, newSecret, clearSecret, insecureCommands$/,
      ],
      [
        'an unknown profile',
        'profile=teltonika-fmx',
        /^profile: "teltonika-fmx" is not a command profile \(default, /,
      ],
      ['a profile given twice', 'profile=gt06-relay&profile=default', /profile/],
      [
        'a bad network',
        'allowedNetworks=10.0.0.0/8,apn.example.com',
        /^allowedNetworks: "apn.example.com" is not an IP address or CIDR block/,
      ],
      ['any among networks', 'allowedNetworks=any,10.0.0.0/8', /^allowedNetworks: any stands alone$/],
      ['a fractional offset', 'clockOffsetSeconds=1.5', /clockOffsetSeconds/],
      ['an offset out of range', 'clockOffsetSeconds=99999999999', /clockOffsetSeconds/],
      ['an offset that is not a number', 'clockOffsetSeconds=two%20hours', /clockOffsetSeconds/],
      [
        'both secret flags',
        'newSecret=true&clearSecret=true',
        /^newSecret: give either newSecret or clearSecret, not both$/,
      ],
      ['a flag that is not a boolean', 'newSecret=yes', /newSecret/],
    ])('answers 422 INVALID_INPUT for %s, naming the field', async (_what, query, description) => {
      const vehicle = await newVehicle();
      const response = await put(vehicle.id, query);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ type: 'VALIDATION_ERROR', code: 'INVALID_INPUT' });
      expect(response.json<{ description: string }>().description).toMatch(description);
      expect((await settingsOf(vehicle.id)).updatedAt).toBeNull();
    });

    it('answers 422 for a vehicle id that is not one', async () => {
      for (const id of ['0', 'abc', '2147483648']) {
        const response = await h.get(`/v2/api/vehicles/${id}/device-settings`, token);
        expect({ id, status: response.statusCode }).toEqual({ id, status: 422 });
      }
    });
  });

  describe('the admin CLI’s functions (devices:show, devices:set, devices:profiles)', () => {
    let dataSource: DataSource;
    let admin: ReturnType<typeof createDeviceSettingsAdmin>;

    beforeAll(async () => {
      dataSource = await new DataSource(
        dataSourceOptions(
          ingestSchema,
          { url: h.database.url, migrateOnStart: false, poolSize: 1 },
          'admin-test',
        ),
      ).initialize();
      admin = createDeviceSettingsAdmin(dataSource);
    });

    afterAll(async () => {
      await dataSource?.destroy();
    });

    it('shows and sets a vehicle’s settings, printing a new secret once', async () => {
      const vehicle = await newVehicle();
      expect(await admin.show(vehicle.id)).toEqual({
        vehicleId: vehicle.id,
        commandProfile: null,
        allowedNetworks: null,
        clockOffsetSeconds: 0,
        secretRequired: false,
        insecureCommands: false,
        updatedAt: null,
      });
      const set = await admin.set(vehicle.id, {
        profile: 'teltonika-fmb',
        networks: '10.64.0.0/16, 2001:db8::/32',
        clockOffsetSeconds: '-7200',
        newSecret: true,
      });
      expect(set).toEqual({
        vehicleId: vehicle.id,
        commandProfile: 'teltonika-fmb',
        allowedNetworks: ['10.64.0.0/16', '2001:db8::/32'],
        clockOffsetSeconds: -7200,
        secretRequired: true,
        insecureCommands: false,
        updatedAt: expect.any(Date),
        secret: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      });
      const { secret, ...shown } = set;
      expect(await admin.show(vehicle.id)).toEqual(shown);
      expect(
        (
          await h.database.pool.query(
            'SELECT secret_hash FROM ingest.device_settings WHERE vehicle_id = $1',
            [vehicle.id],
          )
        ).rows[0].secret_hash,
      ).toBe(sha256(secret!));
      // The route sees what the CLI wrote.
      expect(await settingsOf(vehicle.id)).toMatchObject({
        commandProfile: 'teltonika-fmb',
        secretRequired: true,
      });

      const cleared = await admin.set(vehicle.id, { profile: 'default', networks: 'any', clearSecret: true });
      expect(cleared).toMatchObject({
        commandProfile: null,
        allowedNetworks: null,
        clockOffsetSeconds: -7200,
        secretRequired: false,
        insecureCommands: false,
      });
      expect(Object.keys(cleared)).not.toContain('secret');
    });

    it('refuses bad values naming the CLI’s option, and vehicles ingest does not know', async () => {
      const vehicle = await newVehicle();
      await expect(admin.set(vehicle.id, { networks: 'somewhere' })).rejects.toThrow(
        /^--networks: "somewhere" is not an IP address or CIDR block/,
      );
      await expect(admin.set(vehicle.id, { clockOffsetSeconds: '2h' })).rejects.toThrow(
        /^--clock-offset: "2h" is not a whole number of seconds/,
      );
      await expect(admin.set(vehicle.id, { newSecret: true, clearSecret: true })).rejects.toThrow(
        /^--new-secret: give either --new-secret or --clear-secret, not both/,
      );
      await expect(admin.set(vehicle.id, {})).rejects.toThrow(/nothing to change/);
      await expect(admin.show(2_000_000_000)).rejects.toThrow(
        /Vehicle 2000000000 is not known to telemetry-ingest/,
      );
      await expect(admin.set(2_000_000_000, { newSecret: true })).rejects.toThrow(
        /not known to telemetry-ingest/,
      );
      expect(
        (
          await h.database.pool.query(
            'SELECT count(*)::int AS n FROM ingest.device_settings WHERE vehicle_id = 2000000000',
          )
        ).rows[0].n,
      ).toBe(0);
    });

    it('lists every command profile with the texts it sends', () => {
      const profiles = listCommandProfiles();
      expect(profiles.map((profile) => profile.name)).toEqual([
        'teltonika-fmb',
        'teltonika-fmb-can',
        'gt06-relay',
      ]);
      expect(profiles.find((profile) => profile.name === 'teltonika-fmb')).toEqual({
        name: 'teltonika-fmb',
        protocol: 'teltonika',
        isDefault: true,
        summary: expect.any(String),
        doorLock: { lock: 'setdigout ?1', unlock: 'setdigout ?0' },
        ignition: { disable: 'setdigout 1?', enable: 'setdigout 0?' },
        locate: 'getgps',
      });
      expect(profiles.find((profile) => profile.name === 'gt06-relay')).toMatchObject({
        isDefault: true,
        doorLock: null,
      });
      expect(profiles.find((profile) => profile.name === 'teltonika-fmb-can')).toMatchObject({
        isDefault: false,
      });
    });

    it('opts a device out of authenticated commands and back, explicitly (shown as insecureCommands)', async () => {
      const vehicle = await newVehicle();
      expect(await admin.set(vehicle.id, { insecureCommands: true })).toMatchObject({
        insecureCommands: true,
        secretRequired: false,
      });
      expect(await settingsOf(vehicle.id)).toMatchObject({ insecureCommands: true });
      expect(await admin.set(vehicle.id, { insecureCommands: false })).toMatchObject({
        insecureCommands: false,
      });
    });

    it('reaches the running tracker port: a secret set with the CLI is required within the cache time', async () => {
      const vehicle: TestVehicle = await newVehicle();
      const report = (query: Record<string, string>) =>
        fetch(
          `${h.deviceUrl}/?${formText(Object.entries({ id: vehicle.imei, lat: '52.5', lon: '13.4', ...query }))}`,
        );
      expect((await report({})).status).toBe(200);
      const { secret } = await admin.set(vehicle.id, { newSecret: true });
      // Refused without it, and answered as an unknown device (F3).
      await waitFor(async () => (await report({})).status === 400, {
        description: 'the CLI’s secret to be required by the tracker port',
        timeoutMs: 15_000,
      });
      expect((await report({ secret: secret! })).status).toBe(200);
    });
  });
});
