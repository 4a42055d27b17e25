/** Phase 3 of bench/webhooks: the healthy receivers' delays while some receivers never answer. */
import { AlertFiredV1, Topics } from '@fleet/contracts';
import { Reply, WebhookReceiver } from '@fleet/testing';
import { CpuMeter } from '../common/cpu-meter';
import { log, sleep } from '../common/infra';
import {
  alertKeyOf,
  announceConfiguration,
  createWebhook,
  firedAlert,
  invalidSignatures,
  keyOfBody,
  nextFixTime,
  Services,
  summary,
} from './harness';
import { MIX_COMPANY, MIX_CONFIGURATION, MIX_RATE, MIX_RECEIVERS, MIX_SECONDS, VEHICLES } from './options';

/** Phase 3: a steady stream to MIX_RECEIVERS receivers, all fast, then with 10% of them hanging. */
export async function mixPhase(services: Services) {
  const slowCount = Math.max(1, Math.round(MIX_RECEIVERS / 10));
  log(`phase 3: ${MIX_RATE} alerts/s to ${MIX_RECEIVERS} receivers, then with ${slowCount} of them hanging`);
  await announceConfiguration(services, MIX_CONFIGURATION, MIX_COMPANY);
  const receivers: WebhookReceiver[] = [];
  const secrets: string[] = [];
  const webhookIds: number[] = [];
  for (let index = 0; index < MIX_RECEIVERS; index++) {
    const receiver = await WebhookReceiver.start();
    const webhook = await createWebhook(services, MIX_COMPANY, {
      url: receiver.url('/mix'),
      alertIds: [MIX_CONFIGURATION],
    });
    receivers.push(receiver);
    secrets.push(webhook.secret);
    webhookIds.push(webhook.id);
  }
  const slow = new Set(receivers.slice(0, slowCount));
  let hanging = false;
  /** When each fired alert was handed to the producer, by its key. */
  const publishedAt = new Map<string, number>();
  /** Per healthy receiver, the first receipt of each alert's delivery. */
  const arrivals = receivers.map(() => new Map<string, number>());
  receivers.forEach((receiver, index) =>
    receiver.answer((request): Reply => {
      if (hanging && slow.has(receiver)) return 'hang';
      const key = keyOfBody(request.body);
      if (!arrivals[index].has(key)) arrivals[index].set(key, performance.now());
      return { status: 200 };
    }),
  );

  const run = async (seconds: number, measure: boolean) => {
    const keys: string[] = [];
    const ticksPerSecond = 10;
    const perTick = MIX_RATE / ticksPerSecond;
    const started = performance.now();
    let due = 0;
    let sent = 0;
    for (let tick = 0; tick < seconds * ticksPerSecond; tick++) {
      const wait = started + (tick * 1000) / ticksPerSecond - performance.now();
      if (wait > 0) await sleep(wait);
      due += perTick;
      const alerts: AlertFiredV1[] = [];
      for (; sent < Math.floor(due); sent++) {
        const vehicleId = (sent % VEHICLES) + 1;
        alerts.push(firedAlert(MIX_CONFIGURATION, MIX_COMPANY, vehicleId, nextFixTime(vehicleId)));
      }
      const now = performance.now();
      for (const alert of alerts) {
        const key = alertKeyOf(alert.vehicleId, alert.fixTime);
        publishedAt.set(key, now);
        if (measure) keys.push(key);
      }
      await services.registry.publish(
        Topics.alertsFired,
        alerts.map((payload) => ({ key: String(payload.vehicleId), payload })),
      );
    }
    const healthy = receivers
      .map((receiver, index) => ({ receiver, index }))
      .filter((r) => !slow.has(r.receiver) || !hanging);
    const deadline = performance.now() + 30_000;
    const complete = () => healthy.every(({ index }) => keys.every((key) => arrivals[index].has(key)));
    while (!complete() && performance.now() < deadline) await sleep(50);
    const delays: number[] = [];
    let missing = 0;
    for (const { index } of healthy) {
      for (const key of keys) {
        const arrival = arrivals[index].get(key);
        if (arrival === undefined) missing++;
        else delays.push(arrival - publishedAt.get(key)!);
      }
    }
    return {
      alerts: keys.length,
      healthyReceivers: healthy.length,
      measured: delays.length,
      missing,
      ...summary(delays),
    };
  };

  log('phase 3: warm-up, 5 s');
  await run(5, false);
  log(`phase 3: every receiver fast, ${MIX_SECONDS} s`);
  const meter = () =>
    new CpuMeter({
      'webhook-dispatcher': { pids: () => [services.dispatcher.pid] },
      kafka: { pids: services.kafkaPids },
      postgres: { command: 'postgres' },
      bench: { pids: () => [process.pid] },
    }).start();
  const cpuFast = meter();
  const withoutSlow = await run(MIX_SECONDS, true);
  const usageFast = cpuFast();
  hanging = true;
  const slowRequestsBefore = receivers.slice(0, slowCount).reduce((sum, r) => sum + r.requests.length, 0);
  log(`phase 3: ${slowCount} receivers hanging, ${MIX_SECONDS} s`);
  const cpu = meter();
  const withSlow = await run(MIX_SECONDS, true);
  const usage = cpu();
  const slowAttempts =
    receivers.slice(0, slowCount).reduce((sum, r) => sum + r.requests.length, 0) - slowRequestsBefore;
  const slowDeliveries = await services.queries.pendingAndFailedOf(webhookIds.slice(0, slowCount));
  let invalid = 0;
  let checked = 0;
  for (const [index, receiver] of receivers.entries()) {
    const sample = receiver.requests.filter((_, n) => n % 10 === 0);
    checked += sample.length;
    invalid += await invalidSignatures(sample, () => secrets[index]);
  }
  await Promise.all(receivers.map((receiver) => receiver.close()));
  return {
    receivers: MIX_RECEIVERS,
    slowReceivers: slowCount,
    slowReceiverAnswer: 'none (the dispatcher times each attempt out after 5 s)',
    alertsPerSecond: MIX_RATE,
    deliveriesPerSecond: MIX_RATE * MIX_RECEIVERS,
    seconds: MIX_SECONDS,
    measuredFrom: 'the fired alert handed to the Kafka producer',
    measuredTo: "the delivery's body complete at a healthy receiver",
    healthyWithoutSlowMs: withoutSlow,
    healthyWithSlowMs: withSlow,
    slowAttemptsMade: slowAttempts,
    slowDeliveriesAtEnd: slowDeliveries,
    signaturesChecked: checked,
    invalidSignatures: invalid,
    cpuPercentOfOneCore: { withoutSlow: usageFast, withSlow: usage },
    meetsTarget:
      withSlow.missing === 0 &&
      withoutSlow.missing === 0 &&
      // "Keep their p99": within the run-to-run spread of a shared 2-core machine, taken as 1.5× or +25 ms.
      withSlow.p99 <= Math.max(withoutSlow.p99 * 1.5, withoutSlow.p99 + 25),
  };
}
