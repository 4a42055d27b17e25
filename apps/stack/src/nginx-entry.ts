import { ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { ServiceName } from '@fleet/contracts';
import { edgeRules, renderNginxRoutes } from '@fleet/edge';

const run = promisify(execFile);

/** Where Debian's package puts nginx; PATH is tried first. */
const NGINX_CANDIDATES = ['nginx', '/usr/sbin/nginx'];

async function nginxBinary(): Promise<string | undefined> {
  for (const candidate of NGINX_CANDIDATES) {
    try {
      await run(candidate, ['-v']);
      return candidate;
    } catch {
      // Not this one.
    }
  }
  return undefined;
}

export async function nginxAvailable(): Promise<boolean> {
  return (await nginxBinary()) !== undefined;
}

/** The ApiError body of a path the edge keeps private. */
const PRIVATE_404 = JSON.stringify({
  type: 'RESOURCE',
  code: 'NOT_FOUND',
  description: 'Probes and metrics are served on the port of each service, not through the entry point.',
});

/**
 * The stack's nginx: the production edge's routes (rendered from the route table by @fleet/edge, as
 * docker/nginx is) in front of the local replicas. A replica that refuses connections or answers 502/503
 * while it restarts is skipped for the next one (`proxy_next_upstream`), so a rolling restart of one
 * service is invisible to clients as long as another replica is up.
 */
export function renderLocalNginx(
  prefix: string,
  port: number,
  upstreams: Record<ServiceName, string[]>,
): string {
  const upstreamBlocks = Object.entries(upstreams).map(([service, origins]) =>
    [
      `  upstream ${service} {`,
      ...origins.map((origin) => `    server ${new URL(origin).host} max_fails=1 fail_timeout=2s;`),
      '    keepalive 32;',
      '  }',
    ].join('\n'),
  );
  const routes = renderNginxRoutes(edgeRules())
    .split('\n')
    .map((line) => (line ? `    ${line}` : line))
    .join('\n');
  return `# Written by \`npm run stack\` for this run: do not edit (regenerated at every start).
worker_processes 2;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'error.log')} warn;
daemon off;

events {
  worker_connections 4096;
}

http {
  access_log off;
  client_max_body_size 10m;
  client_body_buffer_size 10m;
  client_body_temp_path ${join(prefix, 'tmp/body')};
  proxy_temp_path ${join(prefix, 'tmp/proxy')};
  proxy_max_temp_file_size 0;
  fastcgi_temp_path ${join(prefix, 'tmp/fastcgi')};
  uwsgi_temp_path ${join(prefix, 'tmp/uwsgi')};
  scgi_temp_path ${join(prefix, 'tmp/scgi')};

${upstreamBlocks.join('\n')}

  server {
    listen 127.0.0.1:${port};

    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $host;
    proxy_set_header X-Forwarded-For $remote_addr;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_intercept_errors off;
    proxy_connect_timeout 2s;
    proxy_read_timeout 60s;
    # A replica going away (refused connection, or 502/503 while it stops) is skipped for the next one.
    # Only idempotent requests are retried after they were sent; a refused connection is safe for all.
    proxy_next_upstream error timeout http_502 http_503;
    proxy_next_upstream_tries 3;

    # Probes and metrics are for the orchestrator, on each service's own port: never through the edge.
    location = /metrics { default_type application/json; return 404 '${PRIVATE_404}'; }
    location /health/ { default_type application/json; return 404 '${PRIVATE_404}'; }

${routes}
  }
}
`;
}

/** Starts nginx in the foreground with a configuration under `prefix`; resolves once it accepts connections. */
export async function startNginx(
  prefix: string,
  port: number,
  upstreams: Record<ServiceName, string[]>,
): Promise<{ close(): Promise<void> }> {
  const binary = await nginxBinary();
  if (!binary)
    throw new Error('nginx is not installed (Debian: apt-get install nginx-core); use --entry proxy');
  for (const dir of ['tmp/body', 'tmp/proxy', 'tmp/fastcgi', 'tmp/uwsgi', 'tmp/scgi']) {
    mkdirSync(join(prefix, dir), { recursive: true });
    // Workers run as an unprivileged user when nginx is started by root.
    chmodSync(join(prefix, dir), 0o777);
  }
  const config = join(prefix, 'nginx.conf');
  writeFileSync(config, renderLocalNginx(prefix, port, upstreams));
  await run(binary, ['-t', '-p', prefix, '-c', config]).catch((error: { stderr?: string }) => {
    throw new Error(`nginx refused its configuration ${config}: ${error.stderr ?? ''}`);
  });
  const log = createWriteStream(join(prefix, 'nginx.out.log'), { flags: 'a' });
  const child: ChildProcess = spawn(binary, ['-p', prefix, '-c', config], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited at start: see ${join(prefix, 'error.log')}`);
    try {
      await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1_000) });
      break;
    } catch {
      if (Date.now() > deadline)
        throw new Error(`nginx did not listen on ${port}: see ${join(prefix, 'error.log')}`);
      await delay(100);
    }
  }
  return {
    close: async () => {
      // SIGQUIT: graceful, requests in flight finish.
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}
