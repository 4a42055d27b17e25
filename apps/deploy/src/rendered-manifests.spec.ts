import { execFileSync } from 'node:child_process';
import { BlockList, isIPv6 } from 'node:net';
import { join } from 'node:path';
import { allServiceNames, defaultHttpPorts, publicRoutes, RouteOwnership } from '@fleet/contracts';
import { edgeRules, integratorRoutes, privatePathPrefixes } from '@fleet/edge';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import { parseAllDocuments } from 'yaml';
import { kustomizations } from './manifests';
import { internetService } from './overlays';
import { secretKeys, secretName, workloads } from './workloads';

/**
 * What `kubectl apply -k` would send, checked without a cluster: every kustomization rendered by
 * kubectl's own kustomize (v1.32 here; `.ci/run` installs Debian's kubernetes-client where it is
 * missing), then every object validated against the Kubernetes OpenAPI schemas (kubernetes-models)
 * and against the rules of docs/deployment.md.
 */

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const root = join(__dirname, '../../..');
const KUBECTL = process.env.KUBECTL ?? 'kubectl';

function render(directory: string): Doc[] {
  const text = execFileSync(KUBECTL, ['kustomize', join(root, directory)], {
    encoding: 'utf8',
    // kustomize v5 warns about the v2-compatible fields (overlays.ts); errors still throw, with stderr.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return parseAllDocuments(text).map((document) => document.toJS() as Doc);
}

/** The schema of each kind the manifests may hold; any other kind fails the suite. */
const models = new Map(
  [
    Namespace,
    ConfigMap,
    Service,
    Deployment,
    Job,
    Ingress,
    NetworkPolicy,
    HorizontalPodAutoscaler,
    PodDisruptionBudget,
  ].map((model) => [`${model.apiVersion}/${model.kind}`, model]),
);

/** Schema errors of one object, `[]` when valid. */
function schemaErrors(object: Doc): string[] {
  const model = models.get(`${object.apiVersion}/${object.kind}`);
  if (!model) return [`${object.apiVersion}/${object.kind} is not a kind these manifests may use`];
  try {
    new model(object).validate();
    return [];
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}

const byKind = (objects: Doc[], kind: string) => objects.filter((object) => object.kind === kind);
const containerOf = (deployment: Doc): Doc => deployment.spec.template.spec.containers[0];
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, '42');

/** Whether an address is inside the ipBlock of a NetworkPolicy peer (its `except` ranges excluded). */
function ipBlockAllows(ipBlock: { cidr: string; except?: string[] }, address: string): boolean {
  const family = isIPv6(address) ? 'ipv6' : 'ipv4';
  const list = (cidrs: string[]) => {
    const blocks = new BlockList();
    for (const cidr of cidrs) {
      const [network, prefix] = cidr.split('/');
      if (isIPv6(network) === (family === 'ipv6')) blocks.addSubnet(network, Number(prefix), family);
    }
    return blocks;
  };
  return list([ipBlock.cidr]).check(address, family) && !list(ipBlock.except ?? []).check(address, family);
}

/** Public addresses (Google and Cloudflare DNS) and private ones (cluster, cloud metadata, IPv6 ULA). */
const internet = ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888'];
const privateAddresses = [
  '10.0.0.1',
  '172.16.5.4',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  'fd00::1',
];

/** The NetworkPolicies whose egress lets a pod reach a public address. */
function internetPolicies(policies: Doc[]): Doc[] {
  return policies.filter((policy) =>
    ((policy.spec.egress ?? []) as Doc[]).some(
      (rule) =>
        // A rule without `to` allows every destination.
        rule.to === undefined ||
        (rule.to as Doc[]).some(
          (peer) => peer.ipBlock && internet.some((address) => ipBlockAllows(peer.ipBlock, address)),
        ),
    ),
  );
}

describe.each(kustomizations)('kubectl kustomize %s', (directory) => {
  const objects = render(directory);

  it('renders objects that are valid against the Kubernetes OpenAPI schemas', () => {
    expect(objects.length).toBeGreaterThan(0);
    for (const object of objects)
      expect([`${object.kind}/${object.metadata?.name}`, schemaErrors(object)]).toEqual([
        `${object.kind}/${object.metadata?.name}`,
        [],
      ]);
  });

  it('puts every namespaced object in the fleet namespace', () => {
    for (const object of objects.filter((object) => object.kind !== 'Namespace'))
      expect([object.kind, object.metadata.name, object.metadata.namespace]).toEqual([
        object.kind,
        object.metadata.name,
        'fleet',
      ]);
  });

  it('reads secrets only from the Secret, by secretKeyRef or envFrom secretRef', () => {
    const podSpecs = objects
      .filter((object) => object.kind === 'Deployment' || object.kind === 'Job')
      .map((object) => object.spec.template.spec as Doc);
    for (const container of podSpecs.flatMap((spec) => spec.containers as Doc[])) {
      for (const env of (container.env ?? []) as Doc[]) {
        const isSecret = ['DATABASE_URL', 'AUTH_JWT_SECRET', 'WEBHOOK_SECRET_KEY'].includes(env.name);
        if (isSecret) expect([env.name, env.valueFrom?.secretKeyRef?.name]).toEqual([env.name, secretName]);
        if (isSecret) expect(env.value).toBeUndefined();
      }
      for (const source of (container.envFrom ?? []) as Doc[])
        expect(source.secretRef === undefined || source.secretRef.name === secretName).toBe(true);
    }
    for (const config of byKind(objects, 'ConfigMap'))
      expect(Object.keys(config.data)).not.toEqual(expect.arrayContaining(['DATABASE_URL']));
    expect(byKind(objects, 'Secret')).toEqual([]);
  });
});

describe('every overlay', () => {
  const overlays = { dev: render('k8s/overlays/dev'), prod: render('k8s/overlays/prod') };

  it.each(Object.keys(overlays) as (keyof typeof overlays)[])(
    '%s: each service has a probed, resourced, scraped Deployment with its secrets',
    (overlay) => {
      const deployments = byKind(overlays[overlay], 'Deployment');
      expect(deployments.map((deployment) => deployment.metadata.name).sort()).toEqual(
        [...allServiceNames].sort(),
      );
      for (const deployment of deployments) {
        const service = deployment.metadata.name as (typeof allServiceNames)[number];
        const container = containerOf(deployment);
        expect([
          service,
          container.readinessProbe?.httpGet?.path,
          container.livenessProbe?.httpGet?.path,
        ]).toEqual([service, '/health/ready', '/health/live']);
        expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
        expect(container.resources.limits.memory).toEqual(expect.any(String));
        expect([service, deployment.spec.template.metadata.annotations]).toEqual([
          service,
          {
            'prometheus.io/scrape': 'true',
            'prometheus.io/port': String(defaultHttpPorts[service]),
            'prometheus.io/path': '/metrics',
          },
        ]);
        const fromSecret = (container.env as Doc[])
          .filter((env) => env.valueFrom?.secretKeyRef)
          .map((env) => env.name);
        expect([service, fromSecret]).toEqual([service, secretKeys(service)]);
      }
    },
  );

  it('dev: one small replica each, no autoscaler, migrations at start', () => {
    for (const deployment of byKind(overlays.dev, 'Deployment')) {
      expect([deployment.metadata.name, deployment.spec.replicas]).toEqual([deployment.metadata.name, 1]);
      expect(containerOf(deployment).resources.requests).toEqual({ cpu: '50m', memory: '128Mi' });
      expect(containerOf(deployment).env).not.toContainEqual(
        expect.objectContaining({ name: 'DB_MIGRATE_ON_START' }),
      );
    }
    expect(byKind(overlays.dev, 'ConfigMap')[0].data.DB_MIGRATE_ON_START).toBe('true');
    expect(byKind(overlays.dev, 'HorizontalPodAutoscaler')).toEqual([]);
    expect(byKind(overlays.dev, 'Job')).toEqual([]);
  });

  it.each(allServiceNames)(
    'prod: %s has the replicas and resources of workloads.ts, an autoscaler, a budget, no migration at start',
    (service) => {
      const find = (kind: string) =>
        byKind(overlays.prod, kind).find((object) => object.metadata.name === service);
      const workload = workloads[service];
      const deployment = find('Deployment');
      expect(deployment?.spec.replicas).toBe(workload.minReplicas);
      expect(containerOf(deployment ?? {}).resources).toEqual({
        requests: { cpu: workload.cpuRequest, memory: workload.memoryRequest },
        limits: { memory: workload.memoryLimit },
      });
      expect(containerOf(deployment ?? {}).env).toContainEqual({
        name: 'DB_MIGRATE_ON_START',
        value: 'false',
      });
      expect(find('HorizontalPodAutoscaler')?.spec).toMatchObject({
        scaleTargetRef: { kind: 'Deployment', name: service },
        minReplicas: workload.minReplicas,
        maxReplicas: workload.maxReplicas,
      });
      expect(find('PodDisruptionBudget')?.spec.selector.matchLabels).toEqual({
        'app.kubernetes.io/name': service,
      });
    },
  );

  it("prod: the migration Job runs every service's migrations with DATABASE_URL from the Secret", () => {
    const [job] = render('k8s/overlays/prod/migrate');
    expect(job.kind).toBe('Job');
    const container = containerOf(job);
    expect(container.command).toEqual(['node', 'apps/migrate.js', ...allServiceNames]);
    expect(container.env).toEqual([
      { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: secretName, key: 'DATABASE_URL' } } },
    ]);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
  });

  it(`prod: egress is denied by default and only ${internetService} reaches the internet`, () => {
    const policies = byKind(overlays.prod, 'NetworkPolicy');
    const denyAll = policies.filter(
      (policy) =>
        Object.keys(policy.spec.podSelector).length === 0 &&
        policy.spec.policyTypes.includes('Egress') &&
        (policy.spec.egress ?? []).length === 0,
    );
    expect(denyAll).toHaveLength(1);
    const open = internetPolicies(policies);
    expect(open.map((policy) => policy.spec.podSelector)).toEqual([
      { matchLabels: { 'app.kubernetes.io/name': internetService } },
    ]);
    // Its way out is the internet, not the private networks nor the cloud metadata endpoint.
    const peers = (open[0].spec.egress as Doc[]).flatMap((rule) => rule.to as Doc[]);
    for (const address of privateAddresses)
      expect([address, peers.some((peer) => ipBlockAllows(peer.ipBlock, address))]).toEqual([address, false]);
    for (const address of internet)
      expect([address, peers.some((peer) => ipBlockAllows(peer.ipBlock, address))]).toEqual([address, true]);
  });

  it('the internet check catches a policy that opens egress for everyone', () => {
    const everyone = { spec: { podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }] }] } };
    const anywhere = { spec: { podSelector: {}, egress: [{ ports: [{ port: 443 }] }] } };
    const privateOnly = {
      spec: { podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }] },
    };
    expect(internetPolicies([everyone, anywhere, privateOnly])).toEqual([everyone, anywhere]);
  });
});

describe('the Ingress', () => {
  // The API's Ingress and the event streams' (its own annotations: unbuffered, long timeouts).
  const ingresses = byKind(render('k8s/overlays/prod'), 'Ingress');
  const paths = ingresses.flatMap((ingress) =>
    ingress.spec.rules.flatMap((rule: Doc) => rule.http.paths as Doc[]),
  ) as Doc[];
  /** What ingress-nginx does with a regex path: `location ~* "^<path>"`. */
  const matches = (path: Doc, request: string) => new RegExp(`^${path.path}`, 'i').test(request);
  const everyRoute: readonly RouteOwnership[] = [...publicRoutes, ...integratorRoutes];

  it('routes every public route of the route table to its owner, and lists nothing else', () => {
    for (const route of everyRoute) {
      const owners = paths.filter((path) => matches(path, concrete(route.path)));
      expect([route.path, owners.map((path) => path.backend.service.name)]).toEqual([
        route.path,
        [route.owner],
      ]);
    }
    expect(paths).toHaveLength(edgeRules().length);
  });

  // kubernetes pkg/apis/networking/validation, validateHTTPIngressPath: an ImplementationSpecific path
  // that does not start with `/` "must be an absolute path", and the whole Ingress is refused.
  it('has absolute paths, as the API server requires', () => {
    for (const path of paths) expect(path.path.startsWith('/')).toBe(true);
  });

  it('sends neither /metrics nor /health anywhere: no path and no default backend', () => {
    for (const ingress of ingresses) expect(ingress.spec.defaultBackend).toBeUndefined();
    for (const prefix of privatePathPrefixes)
      for (const request of [prefix, `${prefix}/ready`, `${prefix}/live`])
        expect([request, paths.filter((path) => matches(path, request))]).toEqual([request, []]);
  });
});

describe('the schema check', () => {
  it('fails a broken object and an unknown kind', () => {
    const [deployment] = byKind(render('k8s/overlays/dev'), 'Deployment');
    const broken = structuredClone(deployment);
    broken.spec.replicas = 'two';
    containerOf(broken).resources.limits.memory = 'lots';
    expect(schemaErrors(broken).join(' ')).toMatch(/replicas must be integer.*memory/);
    expect(schemaErrors({ apiVersion: 'example.com/v1', kind: 'Widget' })).toEqual([
      'example.com/v1/Widget is not a kind these manifests may use',
    ]);
  });
});
