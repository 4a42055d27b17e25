import replyFrom from '@fastify/reply-from';
import { EdgeRule, edgeRules, fallbackService } from '@fleet/edge';
import { ServiceName } from '@fleet/contracts';
import Fastify, { FastifyInstance } from 'fastify';

/** Where each service's replicas listen: `http://127.0.0.1:3003`, … */
export type Upstreams = Readonly<Record<ServiceName, readonly string[]>>;

/** Paths the edge never passes on: each process's probes and metrics are for the orchestrator only. */
const PRIVATE_PATHS = /^\/(metrics|health)(\/|$|\?)/;

/**
 * Balances a service's replicas round robin over those whose `/health/ready` answered 200 at the last
 * probe, as a Kubernetes Service does with its endpoints: a replica that is stopping (readiness 503)
 * gets no new requests while it finishes the ones it has.
 */
class ReplicaSet {
  private ready: boolean[];
  private next = 0;

  constructor(readonly origins: readonly string[]) {
    this.ready = origins.map(() => true);
  }

  pick(): string | undefined {
    for (let tried = 0; tried < this.origins.length; tried += 1) {
      const index = (this.next + tried) % this.origins.length;
      if (this.ready[index]) {
        this.next = index + 1;
        return this.origins[index];
      }
    }
    return undefined;
  }

  async probe(): Promise<void> {
    this.ready = await Promise.all(
      this.origins.map(async (origin) => {
        try {
          const response = await fetch(`${origin}/health/ready`, { signal: AbortSignal.timeout(1_000) });
          return response.status === 200;
        } catch {
          return false;
        }
      }),
    );
  }
}

const notFound = (path: string) => ({
  type: 'RESOURCE',
  code: 'NOT_FOUND',
  description: `No route ${path} at the entry point: probes and metrics are served on each service's own port.`,
});

const unavailable = (service: string) => ({
  type: 'SERVER',
  code: 'SERVICE_UNAVAILABLE',
  description: `No replica of ${service} is ready; retry shortly.`,
});

/**
 * The development entry point of `npm run stack` where nginx is not installed: one port in front of
 * the services, routing each request path by the same rules the nginx edge and the Kubernetes Ingress
 * are generated from (@fleet/edge), bodies and headers passed through unchanged.
 */
export async function startDevProxy(
  port: number,
  upstreams: Upstreams,
  rules: readonly EdgeRule[] = edgeRules(),
): Promise<{ close(): Promise<void> }> {
  const compiled = rules.map((rule) => ({ owner: rule.owner, pattern: new RegExp(rule.pattern) }));
  const sets = new Map(
    Object.entries(upstreams).map(([service, origins]) => [service, new ReplicaSet(origins)]),
  );
  const probe = () => Promise.all([...sets.values()].map((set) => set.probe()));
  await probe();
  const timer = setInterval(() => void probe(), 1_000);

  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
  // Bodies stay raw: the owner parses them, with the error bodies of its route family.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  // No cap on connections to a replica: a live stream holds its connection for as long as it is open
  // (as nginx holds an upstream connection per request in flight), so a pool of N would let N streams
  // block every other request to that service.
  await app.register(replyFrom, { undici: { pipelining: 1 } });
  app.all('/*', (request, reply) => {
    const path = request.url.split('?', 1)[0];
    if (PRIVATE_PATHS.test(path)) return reply.status(404).send(notFound(path));
    const owner = compiled.find((rule) => rule.pattern.test(path))?.owner ?? fallbackService;
    const origin = sets.get(owner)?.pick();
    if (!origin) return reply.status(503).header('retry-after', '1').send(unavailable(owner));
    return reply.from(`${origin}${request.url}`, {
      rewriteRequestHeaders: (incoming, headers) => ({
        ...headers,
        'x-forwarded-for': incoming.socket.remoteAddress ?? '',
      }),
    });
  });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    close: async () => {
      clearInterval(timer);
      await app.close();
    },
  };
}
