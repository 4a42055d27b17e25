/** Phase 2 of bench/webhooks: deliveries per second when many are planned at once. */
import { Topics } from '@fleet/contracts';
import { WebhookReceiver } from '@fleet/testing';
import { CpuMeter } from '../common/cpu-meter';
import { log, round, sleep, until } from '../common/infra';
import {
  announceConfiguration,
  createWebhook,
  firedAlert,
  invalidSignatures,
  nextFixTime,
  Services,
} from './harness';
import {
  DELIVERIES,
  FANOUT,
  TARGET,
  THROUGHPUT_COMPANY,
  THROUGHPUT_CONFIGURATION,
  THROUGHPUT_RECEIVERS,
  VEHICLES,
} from './options';

/** Phase 2: DELIVERIES deliveries planned at once, to one fast receiver (or THROUGHPUT_RECEIVERS). */
export async function throughputPhase(services: Services) {
  log(
    `phase 2: ${DELIVERIES} deliveries (${DELIVERIES / FANOUT} fired alerts × ${FANOUT} webhooks) to ${THROUGHPUT_RECEIVERS} receiver(s)`,
  );
  await announceConfiguration(services, THROUGHPUT_CONFIGURATION, THROUGHPUT_COMPANY);
  const receivers = await Promise.all(
    Array.from({ length: THROUGHPUT_RECEIVERS }, () => WebhookReceiver.start()),
  );
  const secrets = new Map<string, string>();
  const webhookIds: number[] = [];
  for (let index = 0; index < FANOUT; index++) {
    const path = `/throughput-${index}`;
    const url = receivers[index % receivers.length].url(path);
    const webhook = await createWebhook(services, THROUGHPUT_COMPANY, {
      url,
      alertIds: [THROUGHPUT_CONFIGURATION],
    });
    secrets.set(path, webhook.secret);
    webhookIds.push(webhook.id);
  }
  const received = new Set<string>();
  let firstAt = 0;
  let lastAt = 0;
  for (const receiver of receivers) {
    receiver.answer((request) => {
      const delivery = String(request.headers['x-service-event']);
      if (!received.has(delivery)) {
        received.add(delivery);
        lastAt = performance.now();
        firstAt ||= lastAt;
      }
      return { status: 200 };
    });
  }

  const alerts = Array.from({ length: Math.ceil(DELIVERIES / FANOUT) }, (_, index) => {
    const vehicleId = (index % VEHICLES) + 1;
    return firedAlert(THROUGHPUT_CONFIGURATION, THROUGHPUT_COMPANY, vehicleId, nextFixTime(vehicleId));
  });
  const expected = alerts.length * FANOUT;
  const cpu = new CpuMeter({
    'webhook-dispatcher': { pids: () => [services.dispatcher.pid] },
    kafka: { pids: services.kafkaPids },
    postgres: { command: 'postgres' },
    bench: { pids: () => [process.pid] },
  }).start();
  const rowUpdates = () => services.queries.deliveryRowUpdates();
  const updatesBefore = await rowUpdates();
  const publishedAt = performance.now();
  for (let from = 0; from < alerts.length; from += 500) {
    await services.registry.publish(
      Topics.alertsFired,
      alerts.slice(from, from + 500).map((payload) => ({ key: String(payload.vehicleId), payload })),
    );
  }
  const publishSeconds = (performance.now() - publishedAt) / 1000;
  const deadline = performance.now() + Math.max(120_000, expected * 5);
  while (received.size < expected && performance.now() < deadline) await sleep(20);
  const usage = cpu();
  const seconds = (lastAt - publishedAt) / 1000;
  // Every result written: the last deliveries' rows say delivered.
  const recorded = await until(
    'every delivery recorded',
    async () => {
      const { delivered, planned } = await services.queries.deliveredOf(webhookIds);
      return delivered >= received.size ? { delivered, planned, at: performance.now() } : undefined;
    },
    60_000,
  );
  // Row updates per delivery: one claim and one result at the least, more when claimed rows are
  // released again. The dispatcher's sessions report their statistics to PostgreSQL about once a second.
  await sleep(2_000);
  const updatesPerDelivery = ((await rowUpdates()) - updatesBefore) / recorded.planned;
  const all = receivers.flatMap((receiver) => receiver.requests);
  const sample = all.filter((_, index) => index % 20 === 0);
  const invalid = await invalidSignatures(sample, (request) => secrets.get(request.url)!);
  const requests = all.length;
  await Promise.all(receivers.map((receiver) => receiver.close()));
  const deliveriesPerSecond = Math.round(received.size / seconds);
  return {
    webhooks: FANOUT,
    receivers: receivers.length,
    firedAlerts: alerts.length,
    deliveries: expected,
    received: received.size,
    requests,
    duplicateRequests: requests - received.size,
    publishSeconds: round(publishSeconds, 2),
    seconds: round(seconds, 2),
    deliveriesPerSecond,
    fromFirstReceiptPerSecond: Math.round((received.size - 1) / ((lastAt - firstAt) / 1000)),
    firstReceiptAfterPublishMs: round(firstAt - publishedAt),
    allRecordedAfterPublishSeconds: round((recorded.at - publishedAt) / 1000, 2),
    plannedRows: recorded.planned,
    deliveryRowUpdatesPerDelivery: round(updatesPerDelivery, 2),
    signaturesChecked: sample.length,
    invalidSignatures: invalid,
    cpuPercentOfOneCore: usage,
    meetsTarget: received.size === expected && deliveriesPerSecond >= TARGET.deliveriesPerSecond,
  };
}
