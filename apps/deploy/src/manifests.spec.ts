import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  allServiceNames,
  defaultDevicePort,
  defaultHttpPorts,
  publicRoutes,
  RouteOwnership,
  ServiceName,
  Topics,
} from '@fleet/contracts';
import { serviceNodeOptions } from '@fleet/platform';
import { parse, parseAllDocuments } from 'yaml';
import {
  edgeRules,
  fallbackService,
  integratorRoutes,
  pathPattern,
  privatePathPrefixes,
  routeAtEdge,
} from '@fleet/edge';
import { generatedManifests } from './manifests';
import { workloads } from './workloads';

const root = join(__dirname, '../../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, '42');
const everyRoute: readonly RouteOwnership[] = [...publicRoutes, ...integratorRoutes];

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('generated deployment files', () => {
  it.each(Object.entries(generatedManifests()))(
    '%s matches what `npm run manifests` writes',
    (path, content) => {
      expect(read(path)).toBe(content);
    },
  );
});

describe('edge rules', () => {
  it('turn templates into anchored patterns that match one path segment per parameter', () => {
    const pattern = new RegExp(pathPattern('/v2/api/vehicles/{id}/positions'));
    expect(pattern.test('/v2/api/vehicles/17/positions')).toBe(true);
    expect(pattern.test('/v2/api/vehicles/17/18/positions')).toBe(false);
    expect(pattern.test('/v2/api/vehicles/17/positions/x')).toBe(false);
    expect(new RegExp(pathPattern('/api/a.b')).test('/api/aXb')).toBe(false);
  });

  it('send every route to its owner and anything else to the fallback', () => {
    for (const route of everyRoute)
      expect([route.path, routeAtEdge(concrete(route.path))]).toEqual([route.path, route.owner]);
    expect(routeAtEdge('/v2/api/no-such-route')).toBe(fallbackService);
  });

  it('refuse a table the edge could not route by path alone', () => {
    expect(() =>
      edgeRules([
        { method: 'GET', path: '/v2/api/things/{id}', owner: 'auth' },
        { method: 'POST', path: '/v2/api/things/{id}', owner: 'query-api' },
      ]),
    ).toThrow(/owned by both/);
    expect(() =>
      edgeRules([
        { method: 'GET', path: '/v2/api/things/{id}', owner: 'auth' },
        { method: 'GET', path: '/v2/api/things/mine', owner: 'query-api' },
      ]),
    ).toThrow(/also matches/);
  });
});

describe('image (docker/Dockerfile)', () => {
  it('runs every service with the node options the benchmarks measured', () => {
    // Quoted: the options are separated by a space, which would end an unquoted ENV value.
    expect(read('docker/Dockerfile')).toContain(`ENV NODE_OPTIONS="${serviceNodeOptions}"\n`);
  });
});

describe('compose stack (docker/)', () => {
  const compose = parse(read('docker/compose.yaml'), { merge: true }) as Doc;

  it('runs every service with its app name and port, and the infrastructure it needs', () => {
    for (const service of allServiceNames) {
      const env = compose.services[service]?.environment as Doc;
      expect([service, env?.APP, Number(env?.HTTP_PORT)]).toEqual([
        service,
        service,
        defaultHttpPorts[service],
      ]);
      expect(env.KAFKA_BROKERS).toBe('kafka:9092');
      expect(env.NODE_OPTIONS).toBe(serviceNodeOptions);
    }
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['postgres', 'kafka', 'redis', 'edge']),
    );
    expect(compose.services['telemetry-ingest'].ports).toContain(`${defaultDevicePort}:${defaultDevicePort}`);
  });

  it("routes each public path through nginx to the owner's upstream", () => {
    const nginx = read('docker/nginx/nginx.conf');
    // nginx tries regex locations in file order and takes the first match; `location /` is the fallback.
    const locations = [...nginx.matchAll(/location ~ "([^"]+)" \{\s*proxy_pass http:\/\/([\w-]+);/g)];
    const upstreams = [...nginx.matchAll(/upstream ([\w-]+) \{\s*server ([\w-]+):(\d+)[ ;]/g)];
    const serverOf = new Map(upstreams.map(([, name, host, port]) => [name, `${host}:${port}`]));
    for (const route of everyRoute) {
      const match = locations.find(([, pattern]) => new RegExp(pattern).test(concrete(route.path)));
      expect([route.path, serverOf.get(match?.[2] ?? '')]).toEqual([
        route.path,
        `${route.owner}:${defaultHttpPorts[route.owner]}`,
      ]);
    }
    // `^~`: a prefix match that nginx takes over every regex location, so the fallback never sees them.
    for (const prefix of privatePathPrefixes) expect(nginx).toContain(`location ^~ ${prefix} {`);
  });

  it('mounts the generated nginx.conf into the edge', () => {
    expect(compose.services.edge.volumes).toContain('./nginx/nginx.conf:/etc/nginx/nginx.conf:ro');
  });
});

describe('Kubernetes manifests (k8s/)', () => {
  const kustomization = parse(read('k8s/base/kustomization.yaml')) as { resources: string[] };
  const prodFiles = ['autoscaling.yaml', 'disruption-budgets.yaml'].map(
    (file) => `k8s/overlays/prod/${file}`,
  );
  const documents = [...kustomization.resources.map((file) => `k8s/base/${file}`), ...prodFiles].flatMap(
    (file) => parseAllDocuments(read(file)).map((document) => document.toJS() as Doc),
  );
  const find = (kind: string, name: string) =>
    documents.find((document) => document.kind === kind && document.metadata.name === name);

  it('lists only files that exist', () => {
    for (const file of kustomization.resources)
      expect([file, existsSync(join(root, 'k8s/base', file))]).toEqual([file, true]);
  });

  it.each(allServiceNames)(
    'gives %s a probed deployment, a service, and in prod its own autoscaler',
    (service) => {
      const container = find('Deployment', service)?.spec.template.spec.containers[0];
      expect(container.env).toEqual(
        expect.arrayContaining([
          { name: 'APP', value: service },
          { name: 'HTTP_PORT', value: String(defaultHttpPorts[service]) },
          { name: 'NODE_OPTIONS', value: serviceNodeOptions },
        ]),
      );
      expect(container.readinessProbe.httpGet.path).toBe('/health/ready');
      expect(container.livenessProbe.httpGet.path).toBe('/health/live');
      expect(container.env).toContainEqual({
        name: 'AUTH_JWT_SECRET',
        valueFrom: { secretKeyRef: { name: 'fleet-secrets', key: 'AUTH_JWT_SECRET' } },
      });
      expect(find('Service', service)?.spec.ports[0].targetPort).toBe('http');
      const autoscaler = find('HorizontalPodAutoscaler', service);
      expect(autoscaler?.spec.scaleTargetRef.name).toBe(service);
      expect(autoscaler?.spec.minReplicas).toBe(workloads[service].minReplicas);
    },
  );

  it('never scales a positions consumer past the partitions it could be given', () => {
    const consumers: ServiceName[] = ['query-api', 'alert-engine'];
    for (const service of consumers) {
      expect(find('HorizontalPodAutoscaler', service)?.spec.maxReplicas).toBeLessThanOrEqual(
        Topics.positions.partitions,
      );
    }
  });

  it("routes each public path through the Ingress to the owner's service", () => {
    // Two Ingresses: the API, and the event streams with their own annotations (unbuffered, long timeouts).
    const paths = ['fleet-api', 'fleet-api-streams'].flatMap(
      (name) => find('Ingress', name)?.spec.rules[0].http.paths as Doc[],
    );
    for (const route of everyRoute) {
      // ingress-nginx anchors a regex path itself: `location ~* "^<path>"`.
      const matches = paths.filter((path) => new RegExp(`^${path.path}`, 'i').test(concrete(route.path)));
      expect([route.path, matches.map((path) => path.backend.service.name)]).toEqual([
        route.path,
        [route.owner],
      ]);
    }
    const streams = find('Ingress', 'fleet-api-streams');
    expect(streams?.metadata.annotations).toMatchObject({
      'nginx.ingress.kubernetes.io/proxy-buffering': 'off',
      'nginx.ingress.kubernetes.io/proxy-read-timeout': '3600',
    });
    expect(streams?.spec.rules[0].http.paths.map((path: Doc) => path.path)).toEqual(['/v2/api/stream$']);
    // No default backend: /metrics, /health and unknown paths get the controller's 404, not a service.
    expect(find('Ingress', 'fleet-api')?.spec.defaultBackend).toBeUndefined();
    expect(streams?.spec.defaultBackend).toBeUndefined();
  });

  it('exposes the OsmAnd port of telemetry-ingest outside the Ingress', () => {
    expect(find('Service', 'telemetry-ingest-devices')?.spec.ports[0].port).toBe(defaultDevicePort);
  });
});
