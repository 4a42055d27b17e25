import { Actions } from '@fleet/contracts';
import { waitFor } from '@fleet/testing';
import { RecordSchema, shapeProblems } from '../telemetry/record-schemas';
import { CommandLogRetention } from '@fleet/command-gateway-service';
import { CommandsContext } from './commands-context';

/** The V2 command record: always these fields, plus the parameter of its type. */
const commandRecord: RecordSchema = {
  id: 'string',
  vehicleId: 'integer',
  type: 'string',
  status: 'string',
  createdAt: 'utcZ',
  expiresAt: 'utcZ',
  sentAt: 'utcZ?',
  finishedAt: 'utcZ?',
  reason: 'string?',
  deviceAnswer: 'string?',
};

interface CommandAnswer {
  id: string;
  vehicleId: number;
  type: string;
  status: string;
  createdAt: string;
  expiresAt: string;
  sentAt: string | null;
  finishedAt: string | null;
  reason: string | null;
  isLock?: boolean;
  isOn?: boolean;
  odometer?: number;
  name?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('command routes (real PostgreSQL; vehicles from the registry)', () => {
  let h: CommandsContext;
  let companyId: number;
  let token: string;
  let vehicle: number;
  let other: { token: string; vehicle: number };

  beforeAll(async () => {
    h = await CommandsContext.open();
    ({ companyId, token } = await h.newTenant());
    vehicle = (await h.newVehicle({ companyIds: [companyId] })).id;
    const otherTenant = await h.newTenant();
    other = {
      token: otherTenant.token,
      vehicle: (await h.newVehicle({ companyIds: [otherTenant.companyId] })).id,
    };
  });
  afterAll(() => h?.close());

  /** A vehicle of the tenant with no commands yet. */
  const freshVehicle = async () => (await h.newVehicle({ companyIds: [companyId] })).id;

  describe('V2 sending routes', () => {
    it('door-lock takes isLock from the query, stores the command and publishes it keyed by vehicle', async () => {
      const vehicleId = await freshVehicle();
      const response = await h.send('PUT', `/v2/api/vehicles/${vehicleId}/door-lock?isLock=true`, token);
      expect(response.statusCode).toBe(200);
      const record = response.json<CommandAnswer>();
      expect(shapeProblems(record, { ...commandRecord, isLock: 'boolean' })).toEqual([]);
      expect(record).toMatchObject({ vehicleId, type: 'doorLock', status: 'queued', isLock: true });
      expect(record.id).toMatch(UUID);
      expect(Date.parse(record.expiresAt) - Date.parse(record.createdAt)).toBe(300_000);
      const published = await h.requested(record.id);
      expect(published).toEqual({
        commandId: record.id,
        vehicleId,
        companyId,
        type: 'doorLock',
        lock: true,
        requestedAt: new Date(record.createdAt).toISOString(),
        expiresAt: new Date(record.expiresAt).toISOString(),
      });
    });

    it.each([
      ['a JSON body', (url: string) => h.send('PUT', url, token, { isLock: false })],
      ['a form body', (url: string) => h.sendForm('PUT', url, token, [['isLock', 'false']])],
      ['a multipart body', (url: string) => h.sendMultipart('PUT', url, token, [['isLock', 'FALSE']])],
    ])('door-lock takes isLock from %s', async (_form, send) => {
      const response = await send(`/v2/api/vehicles/${await freshVehicle()}/door-lock`);
      expect(response.statusCode).toBe(200);
      expect(response.json<CommandAnswer>()).toMatchObject({ type: 'doorLock', isLock: false });
    });

    it('the query parameter wins over the body', async () => {
      const response = await h.send('PUT', `/v2/api/vehicles/${vehicle}/door-lock?isLock=true`, token, {
        isLock: false,
      });
      expect(response.json<CommandAnswer>().isLock).toBe(true);
    });

    it('ignition (POST), odometer and name answer their command with its parameter only', async () => {
      const vehicleId = await freshVehicle();
      const ignition = await h.send('POST', `/v2/api/vehicles/${vehicleId}/ignition?isOn=false`, token);
      expect(ignition.statusCode).toBe(200);
      expect(shapeProblems(ignition.json(), { ...commandRecord, isOn: 'boolean' })).toEqual([]);
      expect(ignition.json<CommandAnswer>()).toMatchObject({ type: 'ignition', isOn: false });

      const odometer = await h.send('PUT', `/v2/api/vehicles/${vehicleId}/odometer?odometer=12345.6`, token);
      expect(odometer.statusCode).toBe(200);
      expect(shapeProblems(odometer.json(), { ...commandRecord, odometer: 'number' })).toEqual([]);
      expect(odometer.json<CommandAnswer>()).toMatchObject({ type: 'odometer', odometer: 12345.6 });
      expect((await h.requested(odometer.json<CommandAnswer>().id)).odometerKm).toBe(12345.6);

      const name = await h.send('PUT', `/v2/api/vehicles/${vehicleId}/name`, token, { name: '  Van 7  ' });
      expect(name.statusCode).toBe(200);
      expect(shapeProblems(name.json(), { ...commandRecord, name: 'string' })).toEqual([]);
      expect(name.json<CommandAnswer>()).toMatchObject({ type: 'name', name: 'Van 7' });
      expect((await h.requested(name.json<CommandAnswer>().id)).name).toBe('Van 7');
    });

    it('odometer 0 is a value, not a missing one', async () => {
      const response = await h.send('PUT', `/v2/api/vehicles/${vehicle}/odometer`, token, { odometer: 0 });
      expect(response.statusCode).toBe(200);
      expect(response.json<CommandAnswer>().odometer).toBe(0);
    });
  });

  describe('V1 sending routes', () => {
    it.each([
      ['SendDoorLock', 'isLock=true', { CommandType: 'doorLock', IsLock: true }],
      ['SendIgnition', 'isOn=true', { CommandType: 'ignition', IsOn: true }],
      ['UpdateLocation', '', { CommandType: 'locate' }],
      ['ChangeOdometer', 'odometer=99', { CommandType: 'odometer', Odometer: 99 }],
      ['SetVehicleName', 'name=Truck%2012', { CommandType: 'name', Name: 'Truck 12' }],
    ])('%s answers a PascalCase object with Status and the command id', async (route, inputs, expected) => {
      const vehicleId = await freshVehicle();
      const response = await h.post(`/api/${route}?id=${vehicleId}&${inputs}`, token);
      expect(response.statusCode).toBe(200);
      const body = response.json<Record<string, unknown>>();
      expect(body).toMatchObject({
        Status: 'OK',
        VehicleId: vehicleId,
        CommandStatus: 'queued',
        ...expected,
      });
      expect(body.CommandId).toEqual(expect.stringMatching(UUID));
      expect(response.headers['x-api-version']).toBeUndefined();
      const stored = await h.get(`/v2/api/commands/${String(body.CommandId)}`, token);
      expect(stored.json<CommandAnswer>()).toMatchObject({ vehicleId, type: expected.CommandType });
    });

    it('takes id and the parameter from a form body too', async () => {
      const vehicleId = await freshVehicle();
      const response = await h.sendForm('POST', '/api/SendIgnition', token, [
        ['id', String(vehicleId)],
        ['isOn', 'false'],
      ]);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ VehicleId: vehicleId, CommandType: 'ignition', IsOn: false });
    });

    it('answers missing or unparsable values with the V1 error body, storing nothing', async () => {
      const vehicleId = await freshVehicle();
      for (const [url, field] of [
        [`/api/SendDoorLock?id=${vehicleId}`, 'isLock'],
        ['/api/SendDoorLock?isLock=true', 'id'],
        [`/api/SendIgnition?id=${vehicleId}&isOn=yes`, 'isOn'],
        [`/api/ChangeOdometer?id=${vehicleId}&odometer=ten`, 'odometer'],
        ['/api/UpdateLocation?id=x', 'id'],
      ] as const) {
        const response = await h.post(url, token);
        expect({ url, status: response.statusCode }).toEqual({ url, status: 422 });
        const body = response.json<{ Status: string; Code: string; Message: string }>();
        expect(body).toMatchObject({ Status: 'Error', Code: 'INVALID_INPUT' });
        expect(body.Message).toContain(field);
      }
      expect(await h.storedCommands(vehicleId)).toBe(0);
    });
  });

  describe('bad input', () => {
    it.each([
      ['PUT', 'door-lock', '', 'isLock'],
      ['PUT', 'door-lock', 'isLock=locked', 'isLock'],
      ['PUT', 'door-lock', 'isLock=', 'isLock'],
      ['POST', 'ignition', '', 'isOn'],
      ['POST', 'ignition', 'isOn=1', 'isOn'],
      ['PUT', 'odometer', '', 'odometer'],
      ['PUT', 'odometer', 'odometer=-1', 'odometer'],
      ['PUT', 'odometer', 'odometer=0x10', 'odometer'],
      ['PUT', 'odometer', 'odometer=10000001', 'odometer'],
      ['PUT', 'name', '', 'name'],
      ['PUT', 'name', 'name=%20%20%20', 'name'],
      ['PUT', 'name', `name=${'x'.repeat(101)}`, 'name'],
      // Escapes that decode to no UTF-8 text (a lone surrogate, bytes no character starts with) were
      // once stored as the literal text `%ED%A0%80`.
      ['PUT', 'name', 'name=%ED%A0%80', 'name'],
      ['PUT', 'name', 'name=%FF%FE', 'name'],
      ['PUT', 'odometer', 'odometer=1%', 'odometer'],
    ] as const)('%s %s?%s is a 422 naming %s, and nothing is stored', async (method, route, query, field) => {
      const vehicleId = await freshVehicle();
      const response = await h.send(method, `/v2/api/vehicles/${vehicleId}/${route}?${query}`, token);
      expect(response.statusCode).toBe(422);
      const body = response.json<{ type: string; code: string; description: string }>();
      expect(body).toMatchObject({ type: 'VALIDATION_ERROR', code: 'INVALID_INPUT' });
      expect(body.description).toContain(field);
      expect(await h.storedCommands(vehicleId)).toBe(0);
    });

    it('a name of exactly 100 characters once trimmed is taken', async () => {
      const name = `  ${'n'.repeat(100)}  `;
      const response = await h.send('PUT', `/v2/api/vehicles/${vehicle}/name`, token, { name });
      expect(response.statusCode).toBe(200);
      expect(response.json<CommandAnswer>().name).toBe('n'.repeat(100));
    });

    it('an unparsable vehicle id is a 422', async () => {
      const response = await h.send('PUT', '/v2/api/vehicles/abc/door-lock?isLock=true', token);
      expect(response.statusCode).toBe(422);
      expect(response.json<{ description: string }>().description).toContain('id');
    });
  });

  describe('access', () => {
    it("another tenant's vehicle and an unknown one are 404 on every route, storing nothing", async () => {
      for (const id of [other.vehicle, 2_000_000_000]) {
        for (const [method, url] of [
          ['PUT', `/v2/api/vehicles/${id}/door-lock?isLock=true`],
          ['POST', `/v2/api/vehicles/${id}/ignition?isOn=true`],
          ['PUT', `/v2/api/vehicles/${id}/odometer?odometer=1`],
          ['PUT', `/v2/api/vehicles/${id}/name?name=x`],
          ['GET', `/v2/api/vehicles/${id}/commands`],
          ['POST', `/api/SendDoorLock?id=${id}&isLock=true`],
          ['POST', `/api/UpdateLocation?id=${id}`],
        ] as const) {
          const response = await h.send(method, url, token);
          expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
        }
      }
      expect(await h.storedCommands(other.vehicle)).toBe(0);
    });

    it('a vehicle outside the key’s allowlist is 404; one inside it is commanded', async () => {
      const allowed = await freshVehicle();
      const restricted = await h.token(await h.newApiKey(companyId, { vehicleIds: [allowed] }));
      const outside = await h.send('PUT', `/v2/api/vehicles/${vehicle}/door-lock?isLock=true`, restricted);
      expect(outside.statusCode).toBe(404);
      const inside = await h.send('PUT', `/v2/api/vehicles/${allowed}/door-lock?isLock=true`, restricted);
      expect(inside.statusCode).toBe(200);
      const command = inside.json<CommandAnswer>().id;
      expect((await h.get(`/v2/api/commands/${command}`, restricted)).statusCode).toBe(200);
    });

    it('a parent company commands its sub-company’s vehicles; the sub-company not its parent’s', async () => {
      const sub = await h.newCompany({ parentId: companyId });
      const subToken = await h.token(await h.newApiKey(sub));
      const subVehicle = (await h.newVehicle({ companyIds: [sub] })).id;
      const fromParent = await h.send('PUT', `/v2/api/vehicles/${subVehicle}/door-lock?isLock=true`, token);
      expect(fromParent.statusCode).toBe(200);
      const fromSub = await h.send('PUT', `/v2/api/vehicles/${vehicle}/door-lock?isLock=true`, subToken);
      expect(fromSub.statusCode).toBe(404);
      // The parent's command on the shared vehicle is the parent's: the sub-company does not read it.
      const read = await h.get(`/v2/api/commands/${fromParent.json<CommandAnswer>().id}`, subToken);
      expect(read.statusCode).toBe(404);
    });

    it('a key without commands:send gets 403 INVALID_SCOPE on every route', async () => {
      const readOnly = await h.token(
        await h.newApiKey(companyId, { actions: [Actions.readVehicles, Actions.readAlerts] }),
      );
      const sent = await h.send('PUT', `/v2/api/vehicles/${vehicle}/door-lock?isLock=true`, token);
      for (const [method, url] of [
        ['PUT', `/v2/api/vehicles/${vehicle}/door-lock?isLock=true`],
        ['POST', `/v2/api/vehicles/${vehicle}/ignition?isOn=true`],
        ['PUT', `/v2/api/vehicles/${vehicle}/odometer?odometer=1`],
        ['PUT', `/v2/api/vehicles/${vehicle}/name?name=x`],
        ['GET', `/v2/api/vehicles/${vehicle}/commands`],
        ['GET', `/v2/api/commands/${sent.json<CommandAnswer>().id}`],
        ['POST', `/api/SendDoorLock?id=${vehicle}&isLock=true`],
        ['POST', `/api/SendIgnition?id=${vehicle}&isOn=true`],
        ['POST', `/api/UpdateLocation?id=${vehicle}`],
        ['POST', `/api/ChangeOdometer?id=${vehicle}&odometer=1`],
        ['POST', `/api/SetVehicleName?id=${vehicle}&name=x`],
      ] as const) {
        const response = await h.send(method, url, readOnly);
        expect({ url, status: response.statusCode }).toEqual({ url, status: 403 });
        const body = response.json<{ code?: string; Code?: string }>();
        expect(body.code ?? body.Code).toBe('INVALID_SCOPE');
      }
    });

    it('a command id that is not a UUID is a 422; an unknown one a 404', async () => {
      expect((await h.get('/v2/api/commands/not-a-uuid', token)).statusCode).toBe(422);
      const unknown = await h.get('/v2/api/commands/00000000-0000-4000-8000-000000000000', token);
      expect(unknown.statusCode).toBe(404);
      const sent = await h.send(
        'PUT',
        `/v2/api/vehicles/${other.vehicle}/door-lock?isLock=true`,
        other.token,
      );
      expect((await h.get(`/v2/api/commands/${sent.json<CommandAnswer>().id}`, token)).statusCode).toBe(404);
    });
  });

  describe('Idempotency-Key', () => {
    it('the same key and request within 24 h answer the first command; one command is stored', async () => {
      const vehicleId = await freshVehicle();
      const url = `/v2/api/vehicles/${vehicleId}/door-lock?isLock=true`;
      const first = await h.send('PUT', url, token, undefined, { 'idempotency-key': 'lock-42' });
      const again = await h.send('PUT', url, token, undefined, { 'idempotency-key': 'lock-42' });
      expect(again.statusCode).toBe(200);
      expect(again.json<CommandAnswer>().id).toBe(first.json<CommandAnswer>().id);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await h.storedCommands(vehicleId)).toBe(1);
      // The same key through V1 for the same command is the same request.
      const legacy = await h.post(`/api/SendDoorLock?id=${vehicleId}&isLock=true`, token);
      expect(legacy.json<{ CommandId: string }>().CommandId).not.toBe(first.json<CommandAnswer>().id);
    });

    it('concurrent requests with one key make one command', async () => {
      const vehicleId = await freshVehicle();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          h.send('POST', `/v2/api/vehicles/${vehicleId}/ignition?isOn=false`, token, undefined, {
            'idempotency-key': 'burst',
          }),
        ),
      );
      expect(new Set(answers.map((answer) => answer.json<CommandAnswer>().id)).size).toBe(1);
      expect(await h.storedCommands(vehicleId)).toBe(1);
    });

    it('a key used for a different request is a 422; another company may use the same key', async () => {
      const vehicleId = await freshVehicle();
      const headers = { 'idempotency-key': 'shared-key' };
      await h.send('PUT', `/v2/api/vehicles/${vehicleId}/door-lock?isLock=true`, token, undefined, headers);
      const different = await h.send(
        'PUT',
        `/v2/api/vehicles/${vehicleId}/door-lock?isLock=false`,
        token,
        undefined,
        headers,
      );
      expect(different.statusCode).toBe(422);
      expect(different.json<{ description: string }>().description).toContain('Idempotency-Key');
      const elsewhere = await h.send(
        'PUT',
        `/v2/api/vehicles/${other.vehicle}/door-lock?isLock=true`,
        other.token,
        undefined,
        headers,
      );
      expect(elsewhere.statusCode).toBe(200);
      expect(elsewhere.headers['idempotent-replayed']).toBeUndefined();
    });

    it('a key older than 24 h makes a new command', async () => {
      const vehicleId = await freshVehicle();
      const url = `/v2/api/vehicles/${vehicleId}/door-lock?isLock=true`;
      const headers = { 'idempotency-key': 'yesterday' };
      const first = await h.send('PUT', url, token, undefined, headers);
      await h.database.pool.query(
        `UPDATE commands.idempotency_keys SET created_at = now() - interval '24 hours 1 minute' WHERE key = $1`,
        ['yesterday'],
      );
      const later = await h.send('PUT', url, token, undefined, headers);
      expect(later.statusCode).toBe(200);
      expect(later.json<CommandAnswer>().id).not.toBe(first.json<CommandAnswer>().id);
      expect(await h.storedCommands(vehicleId)).toBe(2);
    });

    it.each([['x'.repeat(256)], ['   '], ['schlüssel']])('key %j is a 422', async (key) => {
      const vehicleId = await freshVehicle();
      const response = await h.send(
        'PUT',
        `/v2/api/vehicles/${vehicleId}/door-lock?isLock=true`,
        token,
        undefined,
        { 'idempotency-key': key },
      );
      expect(response.statusCode).toBe(422);
      expect(await h.storedCommands(vehicleId)).toBe(0);
    });
  });

  describe('lifecycle', () => {
    const lock = async (vehicleId: number, isLock: boolean) =>
      (
        await h.send('PUT', `/v2/api/vehicles/${vehicleId}/door-lock?isLock=${isLock}`, token)
      ).json<CommandAnswer>();
    const read = async (id: string) => (await h.get(`/v2/api/commands/${id}`, token)).json<CommandAnswer>();
    const at = () => new Date().toISOString();

    it('keeps finished commands COMMANDS_RETENTION_DAYS (90) and deletes them after; waiting ones stay', async () => {
      const vehicleId = await freshVehicle();
      const old = await lock(vehicleId, true);
      const recent = (
        await h.send('PUT', `/v2/api/vehicles/${vehicleId}/odometer?odometer=1000`, token)
      ).json<CommandAnswer>();
      const open = (
        await h.send('POST', `/v2/api/vehicles/${vehicleId}/ignition?isOn=true`, token)
      ).json<CommandAnswer>();
      await h.database.pool.query(
        `UPDATE commands.commands SET status = 'acknowledged', finished_at = now() - make_interval(days => $2)
          WHERE id = $1`,
        [old.id, 91],
      );
      await h.database.pool.query(
        `UPDATE commands.commands SET status = 'acknowledged', finished_at = now() - make_interval(days => $2)
          WHERE id = $1`,
        [recent.id, 89],
      );
      // An open command created long ago but never finished is not the sweep's.
      await h.database.pool.query(
        `UPDATE commands.commands SET created_at = now() - interval '200 days' WHERE id = $1`,
        [open.id],
      );
      await expect(h.app.get(CommandLogRetention).prune()).resolves.toBe(1);
      expect((await h.get(`/v2/api/commands/${old.id}`, token)).statusCode).toBe(404);
      expect((await read(recent.id)).status).toBe('acknowledged');
      expect((await read(open.id)).status).toBe('queued');
    });

    it('a newer command of the same type supersedes a queued one; other types and sent ones stay', async () => {
      const vehicleId = await freshVehicle();
      const first = await lock(vehicleId, true);
      const ignition = (
        await h.send('POST', `/v2/api/vehicles/${vehicleId}/ignition?isOn=false`, token)
      ).json<CommandAnswer>();
      const second = await lock(vehicleId, false);
      expect(await read(first.id)).toMatchObject({
        status: 'superseded',
        reason: `superseded by command ${second.id}`,
      });
      expect((await read(first.id)).finishedAt).not.toBeNull();
      expect((await read(ignition.id)).status).toBe('queued');
      expect((await read(second.id)).status).toBe('queued');

      await h.report({ commandId: second.id, vehicleId, status: 'sent', at: at() });
      const third = await lock(vehicleId, true);
      expect((await read(second.id)).status).toBe('sent');
      expect((await read(third.id)).status).toBe('queued');
    });

    it('sent, then acknowledged: with the times; later results change nothing', async () => {
      const vehicleId = await freshVehicle();
      const command = await lock(vehicleId, true);
      const sentAt = new Date(Date.now() + 1_000).toISOString();
      await h.report({ commandId: command.id, vehicleId, status: 'sent', at: sentAt });
      expect(await read(command.id)).toMatchObject({ status: 'sent', sentAt, finishedAt: null });
      // Handed again 30 s later: still sent, first hand-out kept.
      await h.report({
        commandId: command.id,
        vehicleId,
        status: 'sent',
        at: new Date(Date.now() + 31_000).toISOString(),
      });
      expect(await read(command.id)).toMatchObject({ status: 'sent', sentAt });
      const ackAt = new Date(Date.now() + 32_000).toISOString();
      await h.report({ commandId: command.id, vehicleId, status: 'acknowledged', at: ackAt });
      expect(await read(command.id)).toMatchObject({ status: 'acknowledged', sentAt, finishedAt: ackAt });
      await h.report(
        { commandId: command.id, vehicleId, status: 'failed', at: at(), reason: 'late' },
        { commandId: command.id, vehicleId, status: 'sent', at: at() },
      );
      expect(await read(command.id)).toMatchObject({
        status: 'acknowledged',
        finishedAt: ackAt,
        reason: null,
      });
    });

    it('failed carries its reason; a result naming another vehicle changes nothing', async () => {
      const vehicleId = await freshVehicle();
      const command = await lock(vehicleId, false);
      await h.report({ commandId: command.id, vehicleId: vehicleId + 1, status: 'acknowledged', at: at() });
      expect((await read(command.id)).status).toBe('queued');
      await h.report({
        commandId: command.id,
        vehicleId,
        status: 'failed',
        at: at(),
        reason: 'the device reported failure',
      });
      expect(await read(command.id)).toMatchObject({
        status: 'failed',
        reason: 'the device reported failure',
      });
    });

    it('a command still waiting at its expiry becomes expired, and a late answer changes nothing', async () => {
      const vehicleId = await freshVehicle();
      const queued = await lock(vehicleId, true);
      const ignition = (
        await h.send('POST', `/v2/api/vehicles/${vehicleId}/ignition?isOn=true`, token)
      ).json<CommandAnswer>();
      await h.report({ commandId: ignition.id, vehicleId, status: 'sent', at: at() });
      await h.database.pool.query(
        `UPDATE commands.commands SET expires_at = now() - interval '1 second' WHERE id = ANY($1::uuid[])`,
        [[queued.id, ignition.id]],
      );
      await waitFor(async () => (await read(queued.id)).status === 'expired', {
        timeoutMs: 5_000,
        description: 'the expiry sweep',
      });
      await waitFor(async () => (await read(ignition.id)).status === 'expired', {
        timeoutMs: 5_000,
        description: 'the expiry sweep of a sent command',
      });
      await h.report({ commandId: ignition.id, vehicleId, status: 'acknowledged', at: at() });
      expect(await read(ignition.id)).toMatchObject({
        status: 'expired',
        reason: 'no answer before the command expired',
      });
    });

    it('lists a vehicle’s commands newest first, paginated', async () => {
      const vehicleId = await freshVehicle();
      const ids: string[] = [];
      for (const isLock of [true, false, true]) ids.push((await lock(vehicleId, isLock)).id);
      ids.push(
        (await h.send('PUT', `/v2/api/vehicles/${vehicleId}/name?name=Listed`, token)).json<CommandAnswer>()
          .id,
      );
      const first = await h.get(`/v2/api/vehicles/${vehicleId}/commands?pageSize=3`, token);
      expect(first.statusCode).toBe(200);
      const page = first.json<{ items: CommandAnswer[]; totalResults: number; numberOfPages: number }>();
      expect(page).toMatchObject({ totalResults: 4, numberOfPages: 2 });
      expect(page.items.map((item) => item.id)).toEqual([ids[3], ids[2], ids[1]]);
      const second = await h.get(`/v2/api/vehicles/${vehicleId}/commands?pageSize=3&page=2`, token);
      expect(second.json<{ items: CommandAnswer[] }>().items.map((item) => item.id)).toEqual([ids[0]]);
      const past = await h.get(`/v2/api/vehicles/${vehicleId}/commands?pageSize=3&page=5`, token);
      expect(past.json()).toMatchObject({ items: [], totalResults: 4 });
    });
  });
});
