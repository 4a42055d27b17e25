/**
 * What the phases of bench/webhooks share: the services the run stands on, the vehicles' fix clock,
 * the alerts' keys, and the steps that make webhooks and configurations known to the dispatcher.
 */
import { randomUUID } from 'node:crypto';
import { AlertConfigurationSnapshotV1, AlertFiredV1, Topics } from '@fleet/contracts';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { verify } from '@octokit/webhooks-methods';
import { Kafka } from 'kafkajs';
import { ReceivedRequest } from '@fleet/testing';
import { percentile, round, ServiceProcess, until } from '../common/infra';
import { benchToken } from '../common/tenant';
import { MAX_SPEED_KMH, VEHICLES } from './options';
import { WebhookBenchQueries } from './webhooks.queries';

export const imeiOf = (vehicleId: number) => `35${String(vehicleId).padStart(13, '0')}`;
/** A delivery's alert as its body names it: the vehicle and the fix time. */
export const alertKeyOf = (vehicleId: number, fixTime: string) => `${vehicleId}@${fixTime}`;
export const keyOfBody = (body: string) => {
  const payload = JSON.parse(body) as { VehicleId: number; Timestamp: string };
  return alertKeyOf(payload.VehicleId, payload.Timestamp);
};
export const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
};

/** Each vehicle's fixes one second apart, from six hours ago, in whole seconds. */
export const clock = new Array<number>(VEHICLES + 1).fill(
  Math.floor(Date.now() / 1_000) * 1_000 - 6 * 3_600_000,
);
export function nextFixTime(vehicleId: number): string {
  clock[vehicleId] += 1_000;
  return new Date(clock[vehicleId]).toISOString();
}

export interface Services {
  env: Record<string, string>;
  jwtSecret: string;
  queries: WebhookBenchQueries;
  registry: KafkaEventPublisher;
  dispatcher: ServiceProcess;
  kafkaPids: () => number[];
  kafka: Kafka;
  namespace: string;
  all: ServiceProcess[];
}

export interface CreatedWebhook {
  id: number;
  secret: string;
}

/** POSTs JSON until a 201 (a service refuses a company's token until it has learnt the company). */
export async function created<T>(url: string, token: string, body: object): Promise<T> {
  let last = '';
  try {
    return await until(`a 201 from ${url}`, async () => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      if (response.status === 201) return (await response.json()) as T;
      last = `${response.status} ${(await response.text()).slice(0, 300)}`;
      return undefined;
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}; its last answer: ${last}`);
  }
}

export async function createWebhook(
  services: Services,
  companyId: number,
  input: { url: string; alertIds: number[] },
): Promise<CreatedWebhook> {
  const token = benchToken(services.jwtSecret, companyId, ['webhooks:manage']);
  return created<CreatedWebhook>(`${services.dispatcher.baseUrl}/v2/api/webhooks`, token, input);
}

/** Announces a configuration as alert-engine's outbox does, and waits for the dispatcher's projection. */
export async function announceConfiguration(services: Services, configurationId: number, companyId: number) {
  const snapshot: AlertConfigurationSnapshotV1 = {
    configurationId,
    companyId,
    alertTypeId: 10,
    isActive: true,
    deleted: false,
    version: 1,
    updatedAt: new Date().toISOString(),
  };
  await services.registry.publish(Topics.alertConfigurationSnapshots, [
    { key: String(configurationId), payload: snapshot },
  ]);
  await waitForProjection(services, configurationId);
}

export async function waitForProjection(services: Services, configurationId: number): Promise<void> {
  await until(`configuration ${configurationId} in webhook-dispatcher's projection`, async () => {
    return (await services.queries.configurationKnown(configurationId)) ? true : undefined;
  });
}

/** An overspeed alert as alert-engine publishes it. */
export function firedAlert(
  configurationId: number,
  companyId: number,
  vehicleId: number,
  fixTime: string,
): AlertFiredV1 {
  return {
    eventId: randomUUID(),
    recordId: 1,
    configurationId,
    alertTypeId: 10,
    companyId,
    ancestorCompanyIds: [],
    vehicleId,
    vehicleName: `Bench ${vehicleId}`,
    lat: 48.1 + (vehicleId % 100) / 1_000,
    lng: 11.5 + Math.floor(vehicleId / 100) / 1_000,
    course: 90,
    fixTime,
    address: {
      street: 'Leopoldstraße 1',
      suburb: 'Schwabing',
      state: 'Bayern',
      postcode: '80802',
      country: 'Germany',
    },
    data: { speed: 142.5, maxSpeed: MAX_SPEED_KMH },
  };
}

/** Checks every signature of `requests` against the webhook secrets by URL path; the count of bad ones. */
export async function invalidSignatures(
  requests: readonly ReceivedRequest[],
  secretOf: (request: ReceivedRequest) => string,
) {
  let invalid = 0;
  for (const request of requests) {
    const signature = String(request.headers['x-service-signature']);
    if (!(await verify(secretOf(request), request.body, signature))) invalid++;
  }
  return invalid;
}
