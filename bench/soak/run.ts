/**
 * `npm run bench:soak -- --minutes N`: the distributed mode (`npm run stack`, two replicas of query-api
 * and webhook-dispatcher behind nginx) under a steady 2,000 positions/s through the batch endpoint,
 * with overspeed alerts and their webhooks, for N minutes. Every minute it records each process's
 * resident memory and event-loop lag, the consumer lag, the p99 latencies of the writes and of reads
 * through the edge, and the rates; a leak or a slow drift shows as a trend. Writes the table as JSON on
 * stdout and the curves to a PNG (--plot, default docs/images/soak.png).
 */
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs, promisify } from 'node:util';
import { AlertTypes } from '@fleet/contracts';
import { dataSourceOptions } from '@fleet/platform';
import { createRegistryAdmin, querySchema } from '@fleet/query-api-service';
import { DataSource } from 'typeorm';
// The harness is test code, not built into dist/: ts-node compiles it from source
// (scripts/runtime-aliases.cjs).
import {
  adminCli as admin,
  apiKeyToken as token,
  StackProcess,
  StackState,
  WebhookReceiver,
} from '@fleet/testing';
import { p99, rssMb } from '../common/infra';
import { soakPlot } from './plot';
import type { SoakMinute } from './soak-minute';

const run = promisify(execFile);
const repoRoot = resolve(__dirname, '../..');
const log = (message: string) => process.stderr.write(`[soak] ${message}\n`);

/** Sum of a metric's samples in a Prometheus text exposition (null when absent). */
function metricSum(text: string, name: string): number | null {
  const samples = text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));
  return samples.length === 0 ? null : samples.reduce((sum, value) => sum + value, 0);
}

async function scrape(url: string | undefined): Promise<string> {
  if (!url) return '';
  try {
    const response = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5_000) });
    return response.status === 200 ? await response.text() : '';
  } catch {
    return '';
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '5' },
      rate: { type: 'string', default: '2000' },
      vehicles: { type: 'string', default: '2000' },
      'fast-every': { type: 'string', default: '200' },
      plot: { type: 'string', default: 'docs/images/soak.png' },
      'port-offset': { type: 'string', default: '19000' },
    },
  });
  const minutes = Number(values.minutes);
  const rate = Number(values.rate);
  const vehicleCount = Number(values.vehicles);
  const fastEvery = Number(values['fast-every']);
  const databaseName = `fleet_soak_${process.pid}`;
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${databaseName}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'fleet-soak-'));
  const receiver = await WebhookReceiver.start();
  let webhooksReceived = 0;
  receiver.answer(() => {
    webhooksReceived += 1;
    // Not kept: hours of deliveries would grow this process, not the platform.
    receiver.requests.length = 0;
    return { status: 200 };
  });

  log(`starting the stack (database ${databaseName})`);
  const stack = await StackProcess.start(
    ['--no-demo', '--replicas', 'query-api=2,webhook-dispatcher=2', '--port-offset', values['port-offset']],
    {
      DATABASE_URL: databaseUrl,
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.1/32',
      LOG_LEVEL: 'warn',
      // One integrator's token sends every batch: the default 60 per minute would refuse most of them.
      RATE_LIMIT_DEFAULT: 'minute=1000000',
    },
    dataDir,
  );
  const stopAll = async () => {
    await stack.interrupt().catch(() => stack.kill());
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
    await run('psql', [
      '-h',
      '127.0.0.1',
      '-U',
      'postgres',
      '-c',
      `DROP DATABASE IF EXISTS ${databaseName}`,
    ]).catch(() => undefined);
  };
  try {
    const state: StackState = stack.state();
    const edge = state.entry!.url;
    const company = await admin<{ id: number }>(databaseUrl, 'companies:create', '--name', 'Soak Freight');
    const readKey = await admin<{ key: string }>(
      databaseUrl,
      'api-keys:create',
      '--company',
      String(company.id),
    );
    const writeKey = await admin<{ key: string }>(
      databaseUrl,
      'api-keys:create',
      '--company',
      String(company.id),
      '--actions',
      'positions:write',
    );
    log(`registering ${vehicleCount} vehicles`);
    const dataSource = await new DataSource(
      dataSourceOptions(querySchema, { url: databaseUrl, migrateOnStart: false, poolSize: 2 }, 'soak'),
    ).initialize();
    const registry = createRegistryAdmin(dataSource);
    const imeis: string[] = [];
    for (let index = 1; index <= vehicleCount; index += 1) {
      const imei = `88${String(index).padStart(13, '0')}`;
      await registry.vehicles.register({ name: `Soak ${index}`, imei, companyIds: [company.id] });
      imeis.push(imei);
    }
    await dataSource.destroy();
    const readToken = await token(edge, readKey.key);
    const writeToken = await token(edge, writeKey.key);
    const post = (path: string, body: unknown) =>
      fetch(`${edge}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${readToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((response) => response.status);
    for (;;) {
      const status = await post(`/v2/api/companies/${company.id}/alerts`, {
        name: 'Over 100 km/h',
        alertTypeId: AlertTypes.overspeed.id,
        settings: { maxSpeedKmh: 100, minDurationSeconds: 0 },
      });
      if (status === 201) break;
      await delay(500);
    }
    while ((await post('/v2/api/webhooks', { url: receiver.url('/soak'), isGlobal: true })) !== 201)
      await delay(500);

    // 100 positions per batch, batches paced to the rate; each vehicle's fixes one second apart.
    const batchSize = 100;
    const batchesPerSecond = rate / batchSize;
    let sequence = 0;
    let accepted = 0;
    let failures = 0;
    let batchLatencies: number[] = [];
    let readLatencies: number[] = [];
    const startFix = Math.floor(Date.now() / 1000);
    const sendBatch = async () => {
      const positions = Array.from({ length: batchSize }, () => {
        const n = sequence++;
        const vehicle = n % vehicleCount;
        const round = Math.floor(n / vehicleCount);
        return {
          deviceId: imeis[vehicle],
          timestamp: new Date((startFix + round) * 1000).toISOString(),
          lat: 52 + vehicle / 10_000,
          lon: 13 + round / 10_000,
          // Each vehicle is fast for one report in every `fastEvery` of its own (not always the same
          // vehicles): an overspeed episode that starts and ends, rate/fastEvery alerts a second.
          speedKmh: (vehicle + round) % fastEvery === fastEvery - 1 ? 130 : 40,
        };
      });
      const started = performance.now();
      const status = await fetch(`${edge}/ingest/v1/positions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writeToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ positions }),
      }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
        () => 0,
      );
      batchLatencies.push(performance.now() - started);
      if (status >= 200 && status < 300) accepted += batchSize;
      else {
        if (failures === 0) log(`a batch was answered ${status}`);
        failures += 1;
      }
    };
    const read = async () => {
      const started = performance.now();
      const status = await fetch(
        `${edge}/v2/api/companies/${company.id}/vehicles/last-position?pageSize=50`,
        {
          headers: { authorization: `Bearer ${readToken}` },
        },
      ).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
        () => 0,
      );
      readLatencies.push(performance.now() - started);
      if (status !== 200) {
        if (failures === 0) log(`a read was answered ${status}`);
        failures += 1;
      }
    };

    log(`load: ${rate} positions/s for ${minutes} min`);
    const end = Date.now() + minutes * 60_000;
    let running = true;
    const inFlight = new Set<Promise<void>>();
    const pacer = (async () => {
      const interval = 1000 / batchesPerSecond;
      let next = performance.now();
      let reads = 0;
      while (running) {
        const batch = sendBatch().finally(() => inFlight.delete(batch));
        inFlight.add(batch);
        if (reads++ % 4 === 0) {
          const reading = read().finally(() => inFlight.delete(reading));
          inFlight.add(reading);
        }
        next += interval;
        await delay(Math.max(0, next - performance.now()));
      }
    })();

    const table: SoakMinute[] = [];
    let alertsBefore = 0;
    let webhooksBefore = 0;
    for (let minute = 1; Date.now() < end; minute += 1) {
      const acceptedBefore = accepted;
      const minuteStart = Date.now();
      await delay(Math.min(60_000, end - Date.now()));
      const seconds = (Date.now() - minuteStart) / 1000;
      const processes = stack.state().processes.filter((process) => process.name !== 'simulator');
      const texts = await Promise.all(processes.map((process) => scrape(process.url)));
      const alertTexts = texts.filter((_, index) => processes[index].name.startsWith('alert-engine'));
      const alertsNow = alertTexts.reduce(
        (sum, text) => sum + (metricSum(text, 'fleet_alerts_fired_total') ?? 0),
        0,
      );
      const row: SoakMinute = {
        minute,
        positionsPerSecond: Math.round((accepted - acceptedBefore) / seconds),
        alertsPerSecond: Math.round(((alertsNow - alertsBefore) / seconds) * 100) / 100,
        webhooksPerSecond: Math.round(((webhooksReceived - webhooksBefore) / seconds) * 100) / 100,
        batchP99Ms: p99(batchLatencies),
        readP99Ms: p99(readLatencies),
        failures,
        rssMb: Object.fromEntries(processes.map((process) => [process.name, rssMb(process.pid)])),
        eventLoopLagP99Ms: Object.fromEntries(
          processes.map((process, index) => {
            const lag = metricSum(texts[index], 'nodejs_eventloop_lag_p99_seconds');
            return [process.name, lag === null ? null : Math.round(lag * 10_000) / 10];
          }),
        ),
        consumerLag: Object.fromEntries(
          processes
            .filter((process) => !process.name.endsWith('-2'))
            .map((process) => [
              process.name,
              metricSum(texts[processes.indexOf(process)], 'fleet_kafka_consumer_lag'),
            ]),
        ),
      };
      alertsBefore = alertsNow;
      webhooksBefore = webhooksReceived;
      batchLatencies = [];
      readLatencies = [];
      failures = 0;
      table.push(row);
      log(JSON.stringify(row));
    }
    running = false;
    await pacer;
    await Promise.all(inFlight);

    const plotFile = resolve(repoRoot, values.plot);
    mkdirSync(dirname(plotFile), { recursive: true });
    writeFileSync(plotFile, await soakPlot(table));
    log(`plot: ${plotFile}`);
    process.stdout.write(
      `${JSON.stringify({ scenario: 'soak', minutes, targetPositionsPerSecond: rate, vehicles: vehicleCount, plot: values.plot, table }, null, 2)}\n`,
    );
  } finally {
    await stopAll();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
