import { parseReplicas, planStack } from './stack-plan';

describe('the stack plan', () => {
  it('gives each replica its own port, the first on the service default', () => {
    const plan = planStack({ replicas: parseReplicas('query-api=2,webhook-dispatcher=2'), portOffset: 1000 });
    expect(plan.instances.map((instance) => [instance.name, instance.httpPort])).toEqual([
      ['auth', 4001],
      ['query-api', 4003],
      ['query-api-2', 4103],
      ['telemetry-ingest', 4002],
      ['command-gateway', 4004],
      ['alert-engine', 4005],
      ['webhook-dispatcher', 4006],
      ['webhook-dispatcher-2', 4106],
    ]);
    expect([plan.entryPort, plan.devicePort, plan.kafkaPort, plan.kafkaControllerPort]).toEqual([
      9080, 6055, 10092, 10093,
    ]);
    expect([plan.teltonikaPort, plan.gt06Port]).toEqual([6027, 6023]);
  });

  it('refuses a second tracker port, unknown services and counts that are not numbers', () => {
    expect(() => planStack({ replicas: { 'telemetry-ingest': 2 }, portOffset: 0 })).toThrow(/runs once/);
    expect(() => parseReplicas('billing=2')).toThrow(/unknown service "billing"/);
    expect(() => parseReplicas('query-api')).toThrow(/needs a count/);
    expect(() => planStack({ replicas: { 'query-api': 0 }, portOffset: 0 })).toThrow(/1 to 9/);
  });
});
