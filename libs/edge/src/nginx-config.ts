import { join } from 'node:path';
import { allServiceNames, defaultHttpPorts, ServiceName } from '@fleet/contracts';
import { EdgeRule, edgeRules, renderNginxRoutes } from './edge-routing';

/**
 * The nginx edge of the distributed mode, rendered as one complete nginx.conf. The compose stack's
 * committed docker/nginx/nginx.conf and the local stack's nginx (`npm run stack`, several replicas per
 * service on 127.0.0.1) both come from `renderNginxConfig`, so they route alike.
 */
export interface NginxConfigOptions {
  /** `host:port` of every replica, per service. Every service needs at least one. */
  readonly upstreams: Readonly<Record<ServiceName, readonly string[]>>;
  /** What `listen` takes: `8080` or `127.0.0.1:8080`. */
  readonly listen: number | string;
  /**
   * A directory for a non-root nginx in the foreground (`nginx -p <prefix> -c <file>`): the pid file,
   * the temp directories (create them first: `nginxTempDirs`) and the error log go under it, and the
   * file says `daemon off`. Without it (a container image that runs `nginx -g 'daemon off;'`) nginx's
   * compiled-in paths are kept and errors go to stderr.
   */
  readonly prefix?: string;
  /** `worker_processes`; default `auto`. */
  readonly workerProcesses?: number | 'auto';
  /** Access log file; default off (the services log their requests). */
  readonly accessLog?: string;
  /** Edge rules; default those of the route table. */
  readonly rules?: readonly EdgeRule[];
}

/** Temp directories nginx needs under the prefix, relative to it. */
export const nginxTempDirs = ['tmp/body', 'tmp/proxy', 'tmp/fastcgi', 'tmp/uwsgi', 'tmp/scgi'] as const;

/**
 * Path prefixes the edge never passes on: probes and metrics are for the orchestrator and Prometheus,
 * on each service's own port. Without these, `/metrics` would reach the fallback service's metrics.
 */
export const privatePathPrefixes = ['/metrics', '/health'] as const;

/** The platform's ApiError shape, so that a client sees the same 404 body as from a service. */
const PRIVATE_404 = JSON.stringify({
  type: 'RESOURCE',
  code: 'NOT_FOUND',
  description: 'Probes and metrics are served on the port of each service, not through the edge.',
});

const GENERATED =
  'Rendered by renderNginxConfig (libs/edge/src/nginx-config.ts) from libs/contracts/src/routes/route-table.ts: do not edit.\n' +
  '# docker/nginx/nginx.conf is rewritten by `npm run manifests`.';

/** The compose stack's upstreams: one container per service name, at its default port. */
export function composeUpstreams(): Record<ServiceName, string[]> {
  return Object.fromEntries(
    allServiceNames.map((service) => [service, [`${service}:${defaultHttpPorts[service]}`]]),
  ) as Record<ServiceName, string[]>;
}

/** `location` blocks answering 404 for the private prefixes; nginx takes them over any regex. */
export function renderPrivateLocations(): string {
  return privatePathPrefixes
    .map((prefix) => `location ^~ ${prefix} { default_type application/json; return 404 '${PRIVATE_404}'; }`)
    .join('\n');
}

/** One `upstream` block per service; every table owner must have a replica. */
function renderUpstreams(upstreams: NginxConfigOptions['upstreams']): string {
  return allServiceNames
    .map((service) => {
      const servers = upstreams[service] ?? [];
      if (servers.length === 0) throw new Error(`no upstream server for ${service}`);
      return [
        `upstream ${service} {`,
        // One failure takes a replica out for 2 s: a stopping replica is skipped at once.
        ...servers.map((server) => `  server ${server} max_fails=1 fail_timeout=2s;`),
        '  keepalive 32;',
        '}',
      ].join('\n');
    })
    .join('\n');
}

/** The process-level directives: paths under the prefix for a foreground non-root nginx, or the image's. */
function renderMain(options: NginxConfigOptions): string[] {
  const workers = `worker_processes ${options.workerProcesses ?? 'auto'};`;
  if (options.prefix === undefined) return [workers, 'error_log stderr warn;'];
  return [
    workers,
    'daemon off;',
    `pid ${join(options.prefix, 'nginx.pid')};`,
    `error_log ${join(options.prefix, 'error.log')} warn;`,
  ];
}

function renderTempPaths(prefix: string | undefined): string[] {
  if (prefix === undefined) return [];
  return nginxTempDirs.map((dir) => {
    const directive = dir === 'tmp/body' ? 'client_body' : dir.slice('tmp/'.length);
    return `${directive}_temp_path ${join(prefix, dir)};`;
  });
}

const indent = (text: string, by: string) =>
  text
    .split('\n')
    .map((line) => (line ? `${by}${line}` : line))
    .join('\n');

/** A complete nginx.conf for the edge (see `NginxConfigOptions`). */
export function renderNginxConfig(options: NginxConfigOptions): string {
  const http = [
    `access_log ${options.accessLog ?? 'off'};`,
    '# Bodies are limited by each service; the largest legitimate one is a batch of 1,000 positions.',
    'client_max_body_size 10m;',
    // Bodies and answers stay in memory: no temporary files, which unprivileged workers could not
    // write under a prefix made by root (the local stack) and which would only slow the edge down.
    'client_body_buffer_size 10m;',
    'proxy_max_temp_file_size 0;',
    ...renderTempPaths(options.prefix),
    '',
    renderUpstreams(options.upstreams),
    '',
    'server {',
    indent(
      [
        `listen ${options.listen};`,
        '',
        'proxy_http_version 1.1;',
        'proxy_set_header Connection "";',
        'proxy_set_header Host $host;',
        '# Replaced, not appended to: one entry, the peer nginx saw. The services believe it because nginx',
        '# is on a private network (HTTP_TRUSTED_PROXIES); the login throttle counts failures by it.',
        'proxy_set_header X-Forwarded-For $remote_addr;',
        'proxy_set_header X-Forwarded-Proto $scheme;',
        "# The services' own error bodies (ApiError, V1 errors) reach the client unchanged.",
        'proxy_intercept_errors off;',
        'proxy_connect_timeout 2s;',
        'proxy_send_timeout 60s;',
        'proxy_read_timeout 60s;',
        '# A replica going away (refused connection, timeout, or 502/503 while it stops) is skipped for',
        '# the next one. nginx never resends a POST it already sent; a refused connection is safe for all.',
        'proxy_next_upstream error timeout http_502 http_503;',
        'proxy_next_upstream_tries 3;',
        'proxy_next_upstream_timeout 10s;',
        '',
        "# Probes and metrics are for the orchestrator and Prometheus, on each service's own port.",
        renderPrivateLocations(),
        '',
        renderNginxRoutes(options.rules ?? edgeRules()).trimEnd(),
      ].join('\n'),
      '  ',
    ),
    '}',
  ].join('\n');
  return [
    `# ${GENERATED}`,
    '# The edge: one port for both public interfaces (V2 /v2/api and V1 /api), each request passed to',
    '# the service that owns its route; /metrics and /health are never passed on.',
    ...renderMain(options),
    '',
    'events {',
    '  worker_connections 4096;',
    '}',
    '',
    'http {',
    indent(http, '  '),
    '}',
    '',
  ].join('\n');
}
