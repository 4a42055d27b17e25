import { attemptLabelOf } from './delivery-metrics';

describe('attemptLabelOf', () => {
  it('tells the outcomes of an attempt apart', () => {
    expect(attemptLabelOf({ kind: 'delivered', statusCode: 204, durationMs: 5, responseExcerpt: '' })).toBe(
      'delivered',
    );
    expect(attemptLabelOf({ kind: 'failed', statusCode: 500, error: 'HTTP 500', durationMs: 5 })).toBe(
      'failed_status',
    );
    expect(attemptLabelOf({ kind: 'failed', error: 'timeout after 5000 ms', durationMs: 5000 })).toBe(
      'timeout',
    );
    expect(attemptLabelOf({ kind: 'failed', error: 'ECONNREFUSED', durationMs: 1 })).toBe('network_error');
  });

  it('labels a refusal (a private address, a bad URL) without an attempt as refused', () => {
    expect(attemptLabelOf({ kind: 'refused', reason: 'only private addresses' })).toBe('refused');
  });
});
