import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { allServiceNames, ServiceName } from '@fleet/contracts';
import { edgeRules, fallbackService } from './edge-routing';
import { nginxTempDirs, privatePathPrefixes, renderNginxConfig } from './nginx-config';

/**
 * The rendered nginx.conf run by the real nginx (Debian's package; `.ci/run` installs it), as the local
 * stack runs it: foreground, everything under a prefix, two replicas of query-api. Every "service" is
 * a small HTTP server that says who it is.
 */

const NGINX = ['/usr/sbin/nginx', 'nginx'].find((candidate) => {
  try {
    execFileSync(candidate, ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

interface Replica {
  readonly service: ServiceName;
  readonly name: string;
  readonly server: Server;
  readonly seen: string[];
  /** What the replica answers; 200 by default. */
  status: number;
}

async function startReplica(service: ServiceName, name: string): Promise<Replica> {
  const replica: Replica = {
    service,
    name,
    seen: [],
    status: 200,
    server: createServer((request: IncomingMessage, response: ServerResponse) => {
      replica.seen.push(request.url ?? '');
      response.writeHead(replica.status, { 'content-type': 'application/json', 'x-replica': name });
      response.end(JSON.stringify({ service, replica: name }));
    }),
  };
  await new Promise<void>((resolve) => replica.server.listen(0, '127.0.0.1', resolve));
  return replica;
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = portOf(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('renderNginxConfig under the real nginx', () => {
  const prefix = mkdtempSync(join(tmpdir(), 'edge-nginx-'));
  const replicas: Replica[] = [];
  let nginx: ChildProcess;
  let base: string;

  beforeAll(async () => {
    if (!NGINX) throw new Error('nginx is not installed (Debian: apt-get install nginx-core)');
    for (const service of allServiceNames) replicas.push(await startReplica(service, `${service}-a`));
    replicas.push(await startReplica('query-api', 'query-api-b'));
    const upstreams = Object.fromEntries(
      allServiceNames.map((service) => [
        service,
        replicas.filter((replica) => replica.service === service).map((r) => `127.0.0.1:${portOf(r.server)}`),
      ]),
    ) as Record<ServiceName, string[]>;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    for (const dir of nginxTempDirs) {
      mkdirSync(join(prefix, dir), { recursive: true });
      chmodSync(join(prefix, dir), 0o777); // workers run as nobody when nginx is started by root
    }
    const config = join(prefix, 'nginx.conf');
    writeFileSync(
      config,
      renderNginxConfig({ upstreams, listen: `127.0.0.1:${port}`, prefix, workerProcesses: 1 }),
    );
    execFileSync(NGINX, ['-t', '-q', '-p', prefix, '-c', config]);
    nginx = spawn(NGINX, ['-p', prefix, '-c', config], { stdio: 'inherit' });
    for (let attempt = 0; ; attempt++) {
      try {
        await fetch(`${base}/v2/api/no-such-route`);
        break;
      } catch (error) {
        if (attempt > 100) throw error;
        await delay(50);
      }
    }
  });

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGQUIT');
      await exited;
    }
    for (const replica of replicas) {
      replica.server.close();
      replica.server.closeAllConnections();
    }
    rmSync(prefix, { recursive: true, force: true });
  });

  const get = async (path: string) => {
    const response = await fetch(`${base}${path}`);
    return {
      status: response.status,
      replica: response.headers.get('x-replica'),
      body: await response.text(),
    };
  };

  it('sends every path of the route table to a replica of its owner', async () => {
    for (const rule of edgeRules()) {
      const { replica } = await get(rule.template.replace(/\{[^}]+\}/g, '42'));
      expect([rule.template, replica?.startsWith(`${rule.owner}-`)]).toEqual([rule.template, true]);
    }
    expect((await get('/v2/api/no-such-route')).replica).toBe(`${fallbackService}-a`);
  });

  it('answers /metrics and /health itself with 404, never passing them to the fallback', async () => {
    for (const prefix of privatePathPrefixes) {
      for (const path of [prefix, `${prefix}/ready`, `${prefix}/live`]) {
        const answer = await get(path);
        expect([path, answer.status, answer.replica]).toEqual([path, 404, null]);
        expect(JSON.parse(answer.body)).toMatchObject({ code: 'NOT_FOUND' });
      }
    }
    const seen = replicas.flatMap((replica) => replica.seen);
    expect(seen.filter((url) => privatePathPrefixes.some((prefix) => url.startsWith(prefix)))).toEqual([]);
  });

  it('skips a replica that answers 503 or has gone away, so clients see no 5xx', async () => {
    const [a, b] = replicas.filter((replica) => replica.service === 'query-api');
    const path = '/v2/api/companies/7/vehicles/last-position';
    a.status = 503;
    const during503 = await Promise.all(Array.from({ length: 10 }, () => get(path)));
    expect(during503.map((answer) => [answer.status, answer.replica])).toEqual(
      Array.from({ length: 10 }, () => [200, b.name]),
    );
    a.status = 200;
    const closed = new Promise((resolve) => a.server.close(resolve));
    a.server.closeAllConnections(); // nginx's keep-alive connections too: replica a is gone
    await closed;
    const afterStop = await Promise.all(Array.from({ length: 10 }, () => get(path)));
    expect(afterStop.map((answer) => [answer.status, answer.replica])).toEqual(
      Array.from({ length: 10 }, () => [200, b.name]),
    );
  });

  it("accepts the compose stack's committed nginx.conf (its host names pointed at 127.0.0.1)", () => {
    const committed = readFileSync(join(__dirname, '../../../docker/nginx/nginx.conf'), 'utf8');
    const config = join(prefix, 'compose-nginx.conf');
    writeFileSync(config, committed.replace(/server [a-z-]+:(\d+)/g, 'server 127.0.0.1:$1'));
    expect(
      execFileSync(NGINX ?? 'nginx', ['-t', '-p', prefix, '-c', config], { encoding: 'utf8', stdio: 'pipe' }),
    ).toBe('');
    expect(committed).not.toContain('daemon off'); // the image's command says it; twice is an error
  });

  it('refuses to render without a replica for a service', () => {
    expect(() => renderNginxConfig({ upstreams: { auth: ['127.0.0.1:1'] } as never, listen: 8080 })).toThrow(
      /no upstream server for telemetry-ingest/,
    );
  });
});
