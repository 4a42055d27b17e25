import { FleetMetrics } from './fleet-metrics';
import { statusClassOf } from './http-metrics';

const sampleOf = async (metrics: FleetMetrics, name: string) =>
  (await metrics.registry.getSingleMetric(name)!.get()).values;

describe('FleetMetrics', () => {
  it('gives each app its own registry: building two registers nothing twice, and they count apart', async () => {
    const first = new FleetMetrics('auth');
    const second = new FleetMetrics('auth');
    first.httpRequests.inc({ method: 'GET', route: '/x', status: '200' });
    expect((await first.httpRequests.get()).values).toHaveLength(1);
    expect((await second.httpRequests.get()).values).toEqual([]);
  });

  it('labels every series with the service, Node metrics included', async () => {
    const metrics = new FleetMetrics('query-api');
    metrics.deadLetters.inc({ topic: 'positions.v1' }, 2);
    const { body, contentType } = await metrics.scrape();
    expect(contentType).toContain('text/plain');
    expect(body).toContain('fleet_dead_letters_total{topic="positions.v1",service="query-api"} 2');
    expect(body).toMatch(/^process_resident_memory_bytes\{service="query-api"\} \d+/m);
    expect(body).toContain('nodejs_eventloop_lag_seconds{service="query-api"}');
  });

  it('reads the outboxes on scrape; a failing one leaves its series out, the others stay', async () => {
    const metrics = new FleetMetrics('alert-engine');
    let rows = 3;
    metrics.addOutbox({ schema: 'alerts', backlog: async () => ({ rows, oldestAgeSeconds: 12.5 }) });
    metrics.addOutbox({ schema: 'broken', backlog: () => Promise.reject(new Error('database away')) });

    await metrics.scrape();
    expect(await sampleOf(metrics, 'fleet_outbox_backlog')).toEqual([
      { labels: { schema: 'alerts' }, value: 3 },
    ]);
    expect(await sampleOf(metrics, 'fleet_outbox_oldest_age_seconds')).toEqual([
      { labels: { schema: 'alerts' }, value: 12.5 },
    ]);
    rows = 0;
    await metrics.scrape();
    expect(await sampleOf(metrics, 'fleet_outbox_backlog')).toEqual([
      { labels: { schema: 'alerts' }, value: 0 },
    ]);
  });

  it('reads lag sources on scrape, partition as a label', async () => {
    const metrics = new FleetMetrics('fleet');
    metrics.addLagSource(() => [{ group: 'query-api', topic: 'positions.v1', partition: 4, lag: 17 }]);
    await metrics.scrape();
    expect(await sampleOf(metrics, 'fleet_kafka_consumer_lag')).toEqual([
      { labels: { group: 'query-api', topic: 'positions.v1', partition: '4' }, value: 17 },
    ]);
  });
});

describe('statusClassOf', () => {
  it.each([
    [200, '2xx'],
    [204, '2xx'],
    [301, '3xx'],
    [404, '4xx'],
    [429, '4xx'],
    [503, '5xx'],
  ])('%i is %s', (status, label) => {
    expect(statusClassOf(status)).toBe(label);
  });
});
