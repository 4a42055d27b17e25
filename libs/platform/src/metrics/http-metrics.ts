import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FleetMetrics } from './fleet-metrics';

/** The route label of requests no route matched (scanners, typos): one series, not one per URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** `2xx`, `4xx`, ...: the duration histogram's label, so that its series stay few. */
export function statusClassOf(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/**
 * Counts every answered request and its duration by route template (`/v2/api/vehicles/:id`, never
 * the URL as sent, so ids do not become series). Registered on Fastify's onResponse, which also sees
 * requests refused before any controller (auth, rate limits, framework errors).
 */
export function installHttpMetrics(app: NestFastifyApplication): void {
  const metrics = app.get(FleetMetrics);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      const status = reply.statusCode;
      metrics.httpRequests.inc({ method: request.method, route, status: String(status) });
      metrics.httpRequestDuration.observe(
        { method: request.method, route, status_class: statusClassOf(status) },
        reply.elapsedTime / 1000,
      );
      done();
    });
}
