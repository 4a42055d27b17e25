import { ApiException } from '@fleet/errors';
import { Logger } from '@nestjs/common';
import { CompanyDirectory, FleetMetrics, Principal } from '@fleet/platform';
import { PositionBatchController } from './position-batch.controller';
import { PositionIntakeService, RejectedReport } from './position-intake.service';
import { PositionMetrics } from './position-metrics';

const principal = { companyId: 1 } as Principal;
const body = {
  positions: [{ deviceId: 'tracker-1', timestamp: '2026-11-27T08:00:00Z', lat: 52.5, lon: 13.4 }],
};

function controllerWhoseIntake(accept: PositionIntakeService['accept']) {
  const intake = { accept } as PositionIntakeService;
  const metrics = new FleetMetrics('telemetry-ingest');
  const controller = new PositionBatchController(
    intake,
    {} as CompanyDirectory,
    new PositionMetrics(metrics),
  );
  return { controller, metrics };
}

async function refusalOf(promise: Promise<unknown>): Promise<ApiException> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiException);
  return error as ApiException;
}

describe('PositionBatchController', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After when the broker cannot take the batch (overload is not a 500)', async () => {
    const { controller, metrics } = controllerWhoseIntake(() =>
      Promise.reject(new Error('KafkaJSRequestTimeoutError: Request Produce timed out')),
    );
    const refusal = await refusalOf(controller.ingest(body, principal));
    expect(refusal).toMatchObject({ status: 503, type: 'SERVER_ERROR', code: 'SERVICE_UNAVAILABLE' });
    expect(refusal.headers).toEqual({ 'Retry-After': '1' });
    expect(refusal.description).not.toContain('Kafka');
    const rejected = (await metrics.registry.getMetricsAsJSON()).find((family) =>
      family.name.endsWith('positions_rejected_total'),
    );
    expect(rejected?.values).toContainEqual(
      expect.objectContaining({ value: 1, labels: expect.objectContaining({ reason: 'unavailable' }) }),
    );
  });

  it('still answers a refused position 422 naming it', async () => {
    const { controller } = controllerWhoseIntake(() =>
      Promise.reject(new RejectedReport('unknown-device', 0, 'deviceId', 'unknown device "tracker-1"')),
    );
    const refusal = await refusalOf(controller.ingest(body, principal));
    expect(refusal).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(refusal.description).toBe('positions[0].deviceId: unknown device "tracker-1"');
  });
});
