import { parsePrometheusText, prometheusFamilies, sampleSum } from './prometheus-text';

const TEXT = [
  '# HELP fleet_http_requests_total HTTP requests.',
  '# TYPE fleet_http_requests_total counter',
  'fleet_http_requests_total{method="GET",route="/v2/api/vehicles/:id",status="200",service="fleet"} 3',
  'fleet_http_requests_total{method="GET",route="unmatched",status="404",service="fleet"} 1',
  'fleet_http_requests_total{method="GET",route="/odd\\"quote",status="200",service="fleet"} 2',
  '# TYPE process_resident_memory_bytes gauge',
  'process_resident_memory_bytes 123456',
  'nodejs_eventloop_lag_seconds 1.5e-3',
  '',
].join('\n');

describe('parsePrometheusText', () => {
  it('reads names, labels (escaped quotes too) and values', () => {
    const samples = parsePrometheusText(TEXT);
    expect(samples).toHaveLength(5);
    expect(samples[2]).toEqual({
      name: 'fleet_http_requests_total',
      labels: { method: 'GET', route: '/odd"quote', status: '200', service: 'fleet' },
      value: 2,
    });
    expect(samples[3]).toEqual({ name: 'process_resident_memory_bytes', labels: {}, value: 123456 });
    expect(samples[4].value).toBeCloseTo(0.0015);
  });

  it('refuses a line that is not a sample', () => {
    expect(() => parsePrometheusText('what is this')).toThrow('not a Prometheus sample');
  });

  it('sums the samples matching some labels', () => {
    const samples = parsePrometheusText(TEXT);
    expect(sampleSum(samples, 'fleet_http_requests_total')).toBe(6);
    expect(sampleSum(samples, 'fleet_http_requests_total', { route: 'unmatched' })).toBe(1);
    expect(sampleSum(samples, 'fleet_http_requests_total', { route: 'none' })).toBe(0);
  });

  it('lists the declared families with their types', () => {
    expect([...prometheusFamilies(TEXT)]).toEqual([
      ['fleet_http_requests_total', 'counter'],
      ['process_resident_memory_bytes', 'gauge'],
    ]);
  });
});
