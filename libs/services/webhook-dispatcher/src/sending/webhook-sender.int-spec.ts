import { freePort, waitFor } from '@fleet/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Receiver } from './test/receiver';
import { ResolveHost } from './target-check';
import { AttemptOutcome, SenderOptions, WebhookSender } from './webhook-sender';

/**
 * WebhookSender against real HTTP servers on loopback. Loopback is refused by default, so most tests
 * allow 127.0.0.1/32 (WEBHOOK_ALLOW_PRIVATE_CIDRS, as a developer would) and the refusals are proven
 * with senders that do not, each against a receiver that counts what reaches it.
 */
const signature = 'sha256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const deliveryId = '0d5f5b52-3c1b-4b8e-9a57-2f1d7c2f7a11';
const eventId = '6a3f1f9e-1f0c-4a55-8f55-0b1de3c6a2b4';
const headers = {
  'X-Service-Signature': signature,
  'X-Service-Delivery': deliveryId,
  'X-Service-Event': eventId,
};
/** Non-ASCII text and exact spacing: the bytes must arrive as they were given. */
const body =
  '{"AlertType":"Geofence","VehicleName":"Zürich € 1","Position":{"Lat":-33.8688,"Lng":151.2093},"Data":null}';

const senders: WebhookSender[] = [];
function sender(options: Partial<SenderOptions> = {}): WebhookSender {
  const created = new WebhookSender({ allowPrivateCidrs: ['127.0.0.1/32'], timeoutMs: 300, ...options });
  senders.push(created);
  return created;
}

/** A resolver that answers from a table, throws ENOTFOUND for anything else, and counts its calls. */
function resolverOf(table: Record<string, string[] | (() => string[])>): {
  resolve: ResolveHost;
  calls: string[];
} {
  const calls: string[] = [];
  const resolve: ResolveHost = (hostname) => {
    calls.push(hostname);
    const entry = table[hostname];
    if (entry === undefined) {
      return Promise.reject(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
      );
    }
    const addresses = typeof entry === 'function' ? entry() : entry;
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return { resolve, calls };
}

let receiver: Receiver;
let other: Receiver;

/**
 * Makes the receiver answer 200 only after `ms`. `hungUp` turns true when the sender closes the
 * connection before that answer; the pending answer is then dropped.
 */
function answerAfter(ms: number): { hungUp: boolean } {
  const late = { hungUp: false };
  receiver.answer = (_request, response) => {
    const timer = setTimeout(() => response.writeHead(200).end('late'), ms);
    response.on('close', () => {
      clearTimeout(timer);
      late.hungUp = !response.writableEnded;
    });
  };
  return late;
}

beforeAll(async () => {
  receiver = await Receiver.start('127.0.0.1');
  other = await Receiver.start('127.0.0.1');
});

afterEach(async () => {
  await Promise.all(senders.splice(0).map((created) => created.close()));
  receiver.reset();
  other.reset();
});

afterAll(async () => {
  await receiver.close();
  await other.close();
});

describe('WebhookSender: the POST', () => {
  it('sends the body bytes and headers exactly, with Content-Type application/json', async () => {
    receiver.answer = (_request, response) => response.writeHead(204).end();
    const outcome = await sender().send({
      url: `${receiver.origin}/hooks/fleet?tenant=7`,
      body,
      // A caller's own Content-Type does not survive: the sender sets the one the spec names.
      headers: { ...headers, 'content-type': 'text/plain' },
    });

    expect(outcome).toEqual({
      kind: 'delivered',
      statusCode: 204,
      durationMs: expect.any(Number),
      responseExcerpt: '',
    });
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks/fleet?tenant=7');
    expect(request.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body, 'utf8')),
      'x-service-signature': signature,
      'x-service-delivery': deliveryId,
      'x-service-event': eventId,
    });
    expect(request.rawHeaderNames.filter((name) => name.toLowerCase() === 'content-type')).toHaveLength(1);
  });

  it('reports a 2xx as delivered, with the first 1 KiB of the answer', async () => {
    const answer = 'é'.repeat(600) + 'tail'; // 1,204 bytes; the 1 KiB mark falls between characters
    receiver.answer = (_request, response) => response.writeHead(200).end(answer);
    const outcome = await sender().send({ url: `${receiver.origin}/`, body, headers });
    expect(outcome).toEqual({
      kind: 'delivered',
      statusCode: 200,
      durationMs: expect.any(Number),
      responseExcerpt: 'é'.repeat(512),
    });
  });

  it('stops reading a huge answer at 64 KiB: the status decides, the connection is dropped', async () => {
    let receiverSawClose!: Promise<void>;
    receiver.answer = (_request, response) => {
      receiverSawClose = new Promise((resolve) => response.on('close', resolve));
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write(Buffer.alloc(256 * 1024, 'x')); // and never ends
    };
    const outcome = await sender({ timeoutMs: 2_000 }).send({ url: `${receiver.origin}/`, body, headers });
    expect(outcome).toMatchObject({ kind: 'delivered', statusCode: 200, responseExcerpt: 'x'.repeat(1024) });
    await receiverSawClose; // the sender let go of the endless answer instead of waiting for its end
  });

  it('fails on a 500, keeping the status and the answer', async () => {
    receiver.answer = (_request, response) => response.writeHead(500).end('{"error":"database down"}');
    await expect(sender().send({ url: `${receiver.origin}/`, body, headers })).resolves.toEqual({
      kind: 'failed',
      statusCode: 500,
      error: 'HTTP 500',
      durationMs: expect.any(Number),
      responseExcerpt: '{"error":"database down"}',
    });
  });

  it('fails on a closed port: connection refused', async () => {
    const closedPort = await freePort();
    await expect(sender().send({ url: `http://127.0.0.1:${closedPort}/`, body, headers })).resolves.toEqual({
      kind: 'failed',
      error: 'connection refused',
      durationMs: expect.any(Number),
    });
  });

  it('fails after timeoutMs, hanging up, when the answer would come later', async () => {
    const late = answerAfter(10 * 300);
    const outcome = await sender({ timeoutMs: 300 }).send({ url: `${receiver.origin}/`, body, headers });
    // Had the sender waited past its timeout, it would have got the late 200 instead.
    expect(outcome).toEqual({
      kind: 'failed',
      error: 'timeout after 300 ms',
      durationMs: expect.any(Number),
    });
    expect((outcome as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(295);
    await waitFor(() => late.hungUp, { description: 'the sender to close the connection' });
  });

  it('fails after timeoutMs when the answer starts but its body never ends', async () => {
    receiver.answer = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"accepted":');
    };
    const outcome = await sender({ timeoutMs: 300 }).send({ url: `${receiver.origin}/`, body, headers });
    expect(outcome).toEqual({
      kind: 'failed',
      statusCode: 200,
      error: 'timeout after 300 ms',
      durationMs: expect.any(Number),
      responseExcerpt: '{"accepted":',
    });
    expect((outcome as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(295);
  });

  it('waits 5 s by default (the spec), then fails', async () => {
    const late = answerAfter(8_000);
    const outcome = await sender({ timeoutMs: undefined }).send({
      url: `${receiver.origin}/`,
      body,
      headers,
    });
    expect(outcome).toEqual({
      kind: 'failed',
      error: 'timeout after 5000 ms',
      durationMs: expect.any(Number),
    });
    expect((outcome as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(4_995);
    await waitFor(() => late.hungUp, { description: 'the sender to close the connection' });
  });
});

describe('WebhookSender: redirects', () => {
  it.each([300, 301, 302, 303])(
    'follows a %i once, as a GET without body or Content-Type, keeping the X-Service-* headers',
    async (status) => {
      receiver.answer = (_request, response) =>
        response.writeHead(status, { location: `${other.origin}/final?from=${status}` }).end('moved');
      other.answer = (_request, response) => response.writeHead(200).end('final answer');
      const outcome = await sender().send({ url: `${receiver.origin}/hook`, body, headers });

      expect(outcome).toEqual({
        kind: 'delivered',
        statusCode: 200,
        durationMs: expect.any(Number),
        responseExcerpt: 'final answer',
        redirectedTo: `${other.origin}/final?from=${status}`,
      });
      expect(receiver.requests.map((request) => request.method)).toEqual(['POST']);
      expect(other.requests).toHaveLength(1);
      const [get] = other.requests;
      expect(get.method).toBe('GET');
      expect(get.url).toBe(`/final?from=${status}`);
      expect(get.body.length).toBe(0);
      expect(get.headers['content-type']).toBeUndefined();
      expect(get.headers['content-length']).toBeUndefined();
      expect(get.headers['transfer-encoding']).toBeUndefined();
      expect(get.headers).toMatchObject({
        'x-service-signature': signature,
        'x-service-delivery': deliveryId,
        'x-service-event': eventId,
      });
    },
  );

  it('resolves a relative Location against the webhook URL', async () => {
    receiver.answer = (request, response) =>
      request.method === 'POST'
        ? response.writeHead(302, { location: '../moved/here?x=1' }).end()
        : response.writeHead(200).end('here');
    const outcome = await sender().send({ url: `${receiver.origin}/hooks/fleet/in`, body, headers });
    expect(outcome).toMatchObject({
      kind: 'delivered',
      redirectedTo: `${receiver.origin}/hooks/moved/here?x=1`,
    });
    expect(receiver.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /hooks/fleet/in',
      'GET /hooks/moved/here?x=1',
    ]);
  });

  it("lets the GET's answer decide: a 500 after the redirect fails the attempt", async () => {
    receiver.answer = (_request, response) =>
      response.writeHead(301, { location: `${other.origin}/gone` }).end();
    other.answer = (_request, response) => response.writeHead(500).end('broken');
    await expect(sender().send({ url: `${receiver.origin}/`, body, headers })).resolves.toEqual({
      kind: 'failed',
      statusCode: 500,
      error: 'redirect GET: HTTP 500',
      durationMs: expect.any(Number),
      responseExcerpt: 'broken',
      redirectedTo: `${other.origin}/gone`,
    });
  });

  it('follows once only: a redirect answering the GET fails, and is not followed', async () => {
    receiver.answer = (_request, response) =>
      response.writeHead(302, { location: `${other.origin}/a` }).end();
    other.answer = (_request, response) =>
      response.writeHead(302, { location: `${receiver.origin}/b` }).end();
    await expect(sender().send({ url: `${receiver.origin}/`, body, headers })).resolves.toMatchObject({
      kind: 'failed',
      statusCode: 302,
      error: 'redirect GET answered 302: a redirect is followed once only',
      redirectedTo: `${other.origin}/a`,
    });
    // send() has resolved, so every request it made has arrived: one POST, one GET, nothing more.
    expect(receiver.requests.map((request) => request.method)).toEqual(['POST']);
    expect(other.requests.map((request) => request.method)).toEqual(['GET']);
  });

  it('gives the GET its own timeout', async () => {
    receiver.answer = (_request, response) =>
      response.writeHead(303, { location: `${other.origin}/slow` }).end();
    other.answer = () => undefined;
    await expect(
      sender({ timeoutMs: 300 }).send({ url: `${receiver.origin}/`, body, headers }),
    ).resolves.toEqual({
      kind: 'failed',
      error: 'redirect GET: timeout after 300 ms',
      durationMs: expect.any(Number),
      redirectedTo: `${other.origin}/slow`,
    });
  });

  it.each([304, 305, 307, 308, 399])('fails on a %i without a second request', async (status) => {
    receiver.answer = (_request, response) =>
      response.writeHead(status, { location: `${other.origin}/x` }).end();
    await expect(sender().send({ url: `${receiver.origin}/`, body, headers })).resolves.toMatchObject({
      kind: 'failed',
      statusCode: status,
      error: `redirect ${status} is not followed`,
    });
    expect(receiver.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
  });

  it('fails on a 302 without Location', async () => {
    receiver.answer = (_request, response) => response.writeHead(302).end();
    await expect(sender().send({ url: `${receiver.origin}/`, body, headers })).resolves.toMatchObject({
      kind: 'failed',
      statusCode: 302,
      error: 'redirect 302 without a Location header',
    });
    expect(receiver.requests).toHaveLength(1);
  });

  it('fails, sending nothing there, when the Location is a refused address, name or URL', async () => {
    const refusedTarget = await Receiver.start('127.0.0.2');
    try {
      const { resolve } = resolverOf({ 'internal.test': ['127.0.0.2'], 'public.test': ['127.0.0.1'] });
      const locations: [string, string][] = [
        [
          `http://127.0.0.2:${refusedTarget.port}/`,
          'redirect target refused: address refused: 127.0.0.2 is loopback',
        ],
        [
          `http://0x7f000002:${refusedTarget.port}/`,
          'redirect target refused: address refused: 127.0.0.2 is loopback',
        ],
        [
          `http://internal.test:${refusedTarget.port}/`,
          'redirect target refused: internal.test resolves only to refused addresses: 127.0.0.2 is loopback',
        ],
        [
          `http://nowhere.test:${refusedTarget.port}/`,
          'redirect target refused: nowhere.test did not resolve (ENOTFOUND)',
        ],
        [
          `http://user:pw@127.0.0.2:${refusedTarget.port}/`,
          'redirect 302 to a refused URL: the URL carries credentials',
        ],
        ['gopher://127.0.0.2:70/', 'redirect 302 to a refused URL: scheme gopher: is not http or https'],
      ];
      for (const [location, error] of locations) {
        receiver.answer = (_request, response) => response.writeHead(302, { location }).end();
        await expect(
          sender({ resolve }).send({ url: `http://public.test:${receiver.port}/`, body, headers }),
        ).resolves.toMatchObject({ kind: 'failed', statusCode: 302, error });
      }
      expect(receiver.requests).toHaveLength(locations.length);
      expect(refusedTarget.connections).toBe(0);
      expect(refusedTarget.requests).toHaveLength(0);
    } finally {
      await refusedTarget.close();
    }
  });
});

describe('WebhookSender: addresses (SSRF)', () => {
  it('refuses an unresolvable host without an attempt', async () => {
    const { resolve } = resolverOf({});
    await expect(
      sender({ resolve }).send({ url: 'https://hooks.example.test/', body, headers }),
    ).resolves.toEqual({
      kind: 'refused',
      reason: 'hooks.example.test did not resolve (ENOTFOUND)',
    });
    // The real resolver, on the reserved .invalid name (RFC 6761).
    await expect(sender().send({ url: 'https://hooks.invalid/', body, headers })).resolves.toEqual({
      kind: 'refused',
      reason: expect.stringMatching(/^hooks\.invalid did not resolve \((ENOTFOUND|EAI_AGAIN)\)$/) as string,
    });
  });

  it('refuses a resolver that hangs once timeoutMs has passed', async () => {
    const resolve: ResolveHost = () => new Promise(() => undefined);
    await expect(
      sender({ resolve, timeoutMs: 200 }).send({ url: 'https://slow.test/', body, headers }),
    ).resolves.toEqual({
      kind: 'refused',
      reason: 'slow.test did not resolve within 200 ms',
    });
  });

  it('refuses webhook URLs that are not http(s) or carry credentials', async () => {
    await expect(sender().send({ url: `ftp://127.0.0.1:${receiver.port}/`, body, headers })).resolves.toEqual(
      {
        kind: 'refused',
        reason: 'webhook URL refused: scheme ftp: is not http or https',
      },
    );
    await expect(
      sender().send({ url: `http://a:b@127.0.0.1:${receiver.port}/`, body, headers }),
    ).resolves.toEqual({
      kind: 'refused',
      reason: 'webhook URL refused: the URL carries credentials',
    });
    expect(receiver.connections).toBe(0);
  });

  it('sends nothing to loopback in any notation, nor to localhost, without an allow-list', async () => {
    const loopbackV6 = await Receiver.start('::1', receiver.port).catch(() => undefined);
    try {
      const strict = sender({ allowPrivateCidrs: [] });
      const port = receiver.port;
      const urls = [
        `http://127.0.0.1:${port}/`,
        `http://2130706433:${port}/`,
        `http://0x7f000001:${port}/`,
        `http://0x7f.0.0.1:${port}/`,
        `http://0177.0.0.1:${port}/`,
        `http://127.1:${port}/`,
        `http://[::ffff:127.0.0.1]:${port}/`,
        `http://[::ffff:7f00:1]:${port}/`,
        `http://[64:ff9b::7f00:1]:${port}/`,
        `http://[2002:7f00:1::]:${port}/`,
        `http://[::1]:${port}/`,
        `http://[::]:${port}/`,
        `http://0.0.0.0:${port}/`,
        `http://0:${port}/`,
        `http://localhost:${port}/`,
      ];
      for (const url of urls) {
        await expect(strict.send({ url, body, headers })).resolves.toEqual({
          kind: 'refused',
          reason: expect.any(String),
        });
      }

      // The control: the same receiver does get a request when the allow-list opens 127.0.0.1.
      await expect(
        sender({ allowPrivateCidrs: ['127.0.0.1/32'] }).send({
          url: `http://localhost:${port}/control`,
          body,
          headers,
        }),
      ).resolves.toMatchObject({ kind: 'delivered', statusCode: 200 });
      await receiver.waitForRequests(1);
      expect(receiver.requests.map((request) => request.url)).toEqual(['/control']);
      expect(receiver.connections).toBe(1);
      expect(loopbackV6?.connections ?? 0).toBe(0);
    } finally {
      await loopbackV6?.close();
    }
  });

  it('connects only to the allowed addresses of a name that also resolves to refused ones', async () => {
    const allowed = await Receiver.start('127.0.0.2');
    const refusedTwin = await Receiver.start('127.0.0.1', allowed.port).catch(() => undefined);
    try {
      // Without a twin on the same port (taken), the test still proves the allowed one was used.
      const { resolve } = resolverOf({ 'mixed.test': ['127.0.0.1', '127.0.0.2', '10.0.0.1'] });
      const mixed = sender({ allowPrivateCidrs: ['127.0.0.2/32'], resolve });
      for (let attempt = 0; attempt < 3; attempt += 1) {
        await expect(
          mixed.send({ url: `http://mixed.test:${allowed.port}/`, body, headers }),
        ).resolves.toMatchObject({
          kind: 'delivered',
        });
      }
      expect(allowed.requests).toHaveLength(3);
      expect(refusedTwin?.connections ?? 0).toBe(0);
    } finally {
      await allowed.close();
      await refusedTwin?.close();
    }
  });

  /**
   * DNS rebinding: the name answers an allowed address (127.0.0.2, allow-listed) and then a refused
   * one (127.0.0.1), alternately. Receiver A listens on 127.0.0.2:P, B on 127.0.0.1:P. Every answer
   * ends with `Connection: close`, so each attempt opens a new connection and its lookup runs: had
   * the connection resolved the name again, it would have got 127.0.0.1 and reached B.
   */
  it('pins the connection to the checked address: a rebinding resolver never reaches the refused one', async () => {
    const a = await Receiver.start('127.0.0.2');
    const b = await Receiver.start('127.0.0.1', a.port);
    try {
      let answers = 0;
      const { resolve, calls } = resolverOf({
        'rebind.test': () => [answers++ % 2 === 0 ? '127.0.0.2' : '127.0.0.1'],
      });
      a.answer = (_request, response) => response.writeHead(200, { connection: 'close' }).end('A');
      b.answer = (_request, response) => response.writeHead(200, { connection: 'close' }).end('B');
      const rebinding = sender({ allowPrivateCidrs: ['127.0.0.2/32'], resolve });

      const outcomes: AttemptOutcome['kind'][] = [];
      for (let attempt = 0; attempt < 8; attempt += 1) {
        outcomes.push(
          (await rebinding.send({ url: `http://rebind.test:${a.port}/hook`, body, headers })).kind,
        );
      }

      expect(outcomes).toEqual([
        'delivered',
        'refused',
        'delivered',
        'refused',
        'delivered',
        'refused',
        'delivered',
        'refused',
      ]);
      expect(calls).toHaveLength(8); // one resolution per attempt, none by the connection
      await a.waitForRequests(4);
      expect(a.connections).toBe(4);
      expect(b.connections).toBe(0); // read after A's four requests arrived
      expect(b.requests).toHaveLength(0);

      // With the allow-list empty, 127.0.0.2 is loopback like any other: refused, nothing sent.
      const strict = sender({
        allowPrivateCidrs: [],
        resolve: resolverOf({ 'rebind.test': ['127.0.0.2'] }).resolve,
      });
      await expect(strict.send({ url: `http://rebind.test:${a.port}/hook`, body, headers })).resolves.toEqual(
        {
          kind: 'refused',
          reason: 'rebind.test resolves only to refused addresses: 127.0.0.2 is loopback',
        },
      );
      expect(a.connections).toBe(4);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('WebhookSender: TLS', () => {
  let dir: string;
  let tls: { key: Buffer; cert: Buffer };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-sender-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=receiver.test',
        '-addext',
        'subjectAltName=DNS:receiver.test',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    tls = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('connects to the pinned address but asks for, and verifies, the host name', async () => {
    const serverNames: string[] = [];
    const secure = await Receiver.startTls(tls, (name) => serverNames.push(name));
    try {
      const { resolve } = resolverOf({ 'receiver.test': ['127.0.0.1'] });
      const outcome = await sender({ resolve, timeoutMs: 2_000 }).send({
        url: `https://receiver.test:${secure.port}/hook`,
        body,
        headers,
      });
      // The self-signed certificate is not trusted: verification is on, and nothing was sent.
      expect(outcome).toEqual({
        kind: 'failed',
        error: expect.stringMatching(
          /^TLS error \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)$/,
        ) as string,
        durationMs: expect.any(Number),
      });
      expect(serverNames).toEqual(['receiver.test']);
      expect(secure.requests).toHaveLength(0);
    } finally {
      await secure.close();
    }
  });
});
