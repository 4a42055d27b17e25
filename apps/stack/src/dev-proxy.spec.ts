import { createServer, IncomingMessage, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { allServiceNames, ServiceName } from '@fleet/contracts';
import { routeAtEdge } from '@fleet/edge';
import { startDevProxy } from './dev-proxy';

/**
 * A stand-in service replica: answers every request with its own name, and readiness as told; the live
 * stream's path opens an event stream that stays open until the client leaves.
 */
async function replica(name: string, ready = () => true): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url === '/health/ready') {
      response.writeHead(ready() ? 200 : 503).end();
      return;
    }
    if (request.url?.startsWith('/v2/api/stream')) {
      response.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n');
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ name, method: request.method, url: request.url, body })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the development entry point of npm run stack', () => {
  const servers: Server[] = [];
  let proxy: { close(): Promise<void> };
  let base: string;
  let secondQueryReady = true;

  beforeAll(async () => {
    const upstreams = {} as Record<ServiceName, string[]>;
    for (const service of allServiceNames) {
      const first = await replica(service);
      servers.push(first.server);
      upstreams[service] = [first.origin];
    }
    const second = await replica('query-api-2', () => secondQueryReady);
    servers.push(second.server);
    upstreams['query-api'].push(second.origin);
    const port = 40_000 + (process.pid % 1000);
    proxy = await startDevProxy(port, upstreams);
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await proxy.close();
    await Promise.all(
      servers.map((server) => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(resolve));
      }),
    );
  });

  const get = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${base}${path}`, init);
    return { status: response.status, body: (await response.json()) as { name?: string; body?: string } };
  };

  it.each([
    ['/v2/api/companies', 'auth'],
    ['/v2/api/companies/7/vehicles/last-position', 'query-api'],
    ['/v2/api/companies/7/alert-records', 'alert-engine'],
    ['/v2/api/webhooks/3', 'webhook-dispatcher'],
    ['/v2/api/commands/abc', 'command-gateway'],
    ['/ingest/v1/positions', 'telemetry-ingest'],
    ['/nothing/here', 'auth'],
  ])('sends %s to the service the edge rules name (%s)', async (path, owner) => {
    expect(routeAtEdge(path)).toBe(owner);
    const { status, body } = await get(path);
    expect(status).toBe(200);
    expect(body.name?.replace(/-2$/, '')).toBe(owner);
  });

  it('passes bodies through unchanged', async () => {
    const { body } = await get('/ingest/v1/positions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"positions":[]}',
    });
    expect(body.body).toBe('{"positions":[]}');
  });

  it('keeps probes and metrics private', async () => {
    expect((await get('/metrics')).status).toBe(404);
    expect((await get('/health/ready')).status).toBe(404);
  });

  it('keeps many live streams open at once, and still answers other requests beside them', async () => {
    // More streams than any connection pool of a proxy would hold: each keeps its connection.
    const streams: IncomingMessage[] = [];
    try {
      await Promise.all(
        Array.from(
          { length: 150 },
          () =>
            new Promise<void>((resolve, reject) => {
              const req = request(`${base}/v2/api/stream?types=positions`, { agent: false }, (response) => {
                streams.push(response);
                response.once('data', () => resolve());
              });
              req.on('error', reject);
              req.end();
            }),
        ),
      );
      expect(streams.map((response) => response.statusCode)).toEqual(Array(150).fill(200));
      const { status, body } = await get('/v2/api/companies/7/vehicles/last-position');
      expect(status).toBe(200);
      expect(body.name?.replace(/-2$/, '')).toBe('query-api');
    } finally {
      for (const response of streams) response.destroy();
    }
  });

  it('balances over the ready replicas and skips one that is not ready', async () => {
    const names = new Set<string>();
    for (let i = 0; i < 4; i += 1) names.add((await get('/v2/api/vehicles/1/last-position')).body.name!);
    expect([...names].sort()).toEqual(['query-api', 'query-api-2']);

    secondQueryReady = false;
    // The proxy probes readiness every second: within a few, only the ready replica answers.
    const deadline = Date.now() + 5_000;
    let after = new Set<string>();
    do {
      after = new Set<string>();
      for (let i = 0; i < 4; i += 1) after.add((await get('/v2/api/vehicles/1/last-position')).body.name!);
    } while (after.size > 1 && Date.now() < deadline);
    expect([...after]).toEqual(['query-api']);
  });
});
