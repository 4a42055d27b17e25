import { request as httpRequest } from 'node:http';
import { CommandsContext } from './commands-context';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const BOUNDARY = 'auditBoundary7MA4YWxk';
const field = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;

/**
 * Issue 54, F6: the audit's malformed parts, each sent as part 2 beside well-formed `id` and `isLock`
 * fields. Busboy skipped each of them, so the request was a 200 and a command was queued.
 */
const MALFORMED_PARTS = [
  [
    'a part without a name',
    `--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nfalse\r\n`,
    'has no name',
  ],
  ['a part without headers', `--${BOUNDARY}\r\n\r\nfalse\r\n`, 'has no headers'],
  [
    'a part with a broken header line',
    `--${BOUNDARY}\r\nContent-Disposition form-data; name="isLock"\r\n\r\nfalse\r\n`,
    'has a malformed header line',
  ],
  [
    'a part without the blank line after its headers',
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="isLock"\r\nfalse\r\n`,
    'has no blank line between its headers and its value',
  ],
] as const;

/**
 * Malformed multipart parts (F6) and JSON bodies that are not UTF-8, over a real socket: the bytes
 * exactly as written, against the command routes (real PostgreSQL and Kafka).
 */
describe('malformed request bodies (issue 54: F6 and the UTF-8 message)', () => {
  let h: CommandsContext;
  let port: number;
  let companyId: number;
  let token: string;

  beforeAll(async () => {
    h = await CommandsContext.open();
    port = (h.app.getHttpServer().address() as { port: number }).port;
    ({ companyId, token } = await h.newTenant());
  });
  afterAll(() => h?.close());

  const freshVehicle = async () => (await h.newVehicle({ companyIds: [companyId] })).id;

  /** Sends `body` as given; without `contentLength` it goes chunked. */
  function send(method: string, path: string, contentType: string, body: Buffer, contentLength = true) {
    return new Promise<Answer>((resolve, reject) => {
      const headers: Record<string, string> = {
        authorization: `Bearer ${token}`,
        'content-type': contentType,
      };
      if (contentLength) headers['content-length'] = String(body.length);
      const outgoing = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
        );
        incoming.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  const multipart = (...parts: string[]) => Buffer.from(`${parts.join('')}--${BOUNDARY}--\r\n`, 'latin1');
  const multipartType = `multipart/form-data; boundary=${BOUNDARY}`;

  it('serves the well-formed multipart body (control case)', async () => {
    const vehicleId = await freshVehicle();
    const v2 = await send(
      'PUT',
      `/v2/api/vehicles/${vehicleId}/door-lock`,
      multipartType,
      multipart(field('id', String(vehicleId)), field('isLock', 'true')),
    );
    expect(v2).toMatchObject({ status: 200, body: { type: 'doorLock', isLock: true } });
    const v1 = await send(
      'POST',
      '/api/SendDoorLock',
      multipartType,
      multipart(field('id', String(vehicleId)), field('isLock', 'true')),
    );
    expect(v1).toMatchObject({ status: 200, body: { Status: 'OK' } });
    expect(await h.storedCommands(vehicleId)).toBe(2);
  });

  it.each(MALFORMED_PARTS)(
    'V2: %s makes the request a 422 naming it; no command',
    async (_what, part, problem) => {
      const vehicleId = await freshVehicle();
      const answer = await send(
        'PUT',
        `/v2/api/vehicles/${vehicleId}/door-lock`,
        multipartType,
        multipart(field('id', String(vehicleId)), part, field('isLock', 'true')),
      );
      expect(answer).toMatchObject({
        status: 422,
        body: { type: 'VALIDATION_ERROR', code: 'INVALID_INPUT' },
      });
      expect(answer.body.description).toContain(`multipart part 2 ${problem}`);
      expect(await h.storedCommands(vehicleId)).toBe(0);
    },
  );

  it.each(MALFORMED_PARTS)(
    'V1: %s makes the request a 422 with the V1 body; no command',
    async (_what, part, problem) => {
      const vehicleId = await freshVehicle();
      const answer = await send(
        'POST',
        '/api/SendDoorLock',
        multipartType,
        multipart(field('id', String(vehicleId)), part, field('isLock', 'true')),
      );
      expect(answer).toMatchObject({ status: 422, body: { Status: 'Error', Code: 'INVALID_INPUT' } });
      expect(answer.body.Message).toContain(`multipart part 2 ${problem}`);
      expect(await h.storedCommands(vehicleId)).toBe(0);
    },
  );

  it.each([
    ['with a Content-Length', true],
    ['chunked', false],
  ])(
    'a JSON body with raw invalid UTF-8 (%s) is a 422 that says so; no command',
    async (_framing, framed) => {
      const vehicleId = await freshVehicle();
      const body = Buffer.concat([
        Buffer.from('{"name":"Van '),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]);
      const answer = await send(
        'PUT',
        `/v2/api/vehicles/${vehicleId}/name`,
        'application/json',
        body,
        framed,
      );
      expect(answer).toMatchObject({
        status: 422,
        body: { type: 'VALIDATION_ERROR', code: 'INVALID_INPUT' },
      });
      expect(answer.body.description).toMatch(/^request body is not valid UTF-8/);
      expect(answer.body.description).not.toMatch(/Content-Length/);
      expect(await h.storedCommands(vehicleId)).toBe(0);
    },
  );

  it('a V1 JSON body with raw invalid UTF-8 gets the V1 body with the same message', async () => {
    const vehicleId = await freshVehicle();
    const body = Buffer.concat([
      Buffer.from(`{"id":${vehicleId},"name":"Van `),
      Buffer.from([0xc3]),
      Buffer.from('"}'),
    ]);
    const answer = await send('POST', '/api/SetVehicleName', 'application/json', body);
    expect(answer).toMatchObject({ status: 422, body: { Status: 'Error', Code: 'INVALID_INPUT' } });
    expect(answer.body.Message).toMatch(/^request body is not valid UTF-8/);
    expect(await h.storedCommands(vehicleId)).toBe(0);
  });

  it('a valid UTF-8 JSON body is still served (control case)', async () => {
    const vehicleId = await freshVehicle();
    const answer = await send(
      'PUT',
      `/v2/api/vehicles/${vehicleId}/name`,
      'application/json; charset=utf-8',
      Buffer.from('{"name":"Lieferwagen €"}'),
      false,
    );
    expect(answer).toMatchObject({ status: 200, body: { type: 'name', name: 'Lieferwagen €' } });
  });
});
