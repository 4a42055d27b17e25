/// <reference lib="dom" />
/**
 * bench/console (issue 31): the web console's figures, in Debian's chromium driven by playwright-core.
 *   - shipped JavaScript and CSS, gzipped (dist/console/sizes.json, written by the build);
 *   - sign-in → first vehicle marker drawn on the map, with the embedded app (`npm start`'s fleet app)
 *     and a company of `--vehicles` (5,000) vehicles registered the admin CLI's way, `--sign-ins` (5)
 *     times (a fresh page each time);
 *   - frame times in the page while every vehicle reports once a second (`--vehicles` positions/s
 *     through the batch endpoint) for `--seconds` (30): requestAnimationFrame intervals measured in the
 *     browser, after `--warmup` (5) seconds, and the stream's positions the page received.
 * Usage: npm run bench:console [-- --vehicles 5000 --seconds 30 --warmup 5 --sign-ins 5]
 * Prints one JSON document on stdout, progress on stderr. Binds and connects to 127.0.0.1 only.
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Actions } from '@fleet/contracts';
import { dataSourceOptions } from '@fleet/platform';
import { authSchema, createAuthAdmin } from '@fleet/auth-service';
import type { Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { launchChromium } from '@fleet/testing';
import { CpuMeter } from '../common/cpu-meter';
import { calibrate, log, machineFacts, numberFlag, percentile, round, sleep } from '../common/infra';
import { cleanUp, guardRun } from '../trackers/lifecycle';
import { embeddedSetup } from '../trackers/setup';
import { countRows } from '../common/tables.queries';
import { firstCompanyId } from './console.queries';

const VEHICLES = numberFlag('vehicles', 5_000);
const SECONDS = numberFlag('seconds', 30);
const WARMUP_SECONDS = numberFlag('warmup', 5);
const SIGN_INS = numberFlag('sign-ins', 5);
const TARGET = { shippedGzipKb: 600, signInToFirstMarkerMs: 2_000, frameTimeP95Ms: 50 };
const BATCH = 1_000;

const repoRoot = join(__dirname, '../..');

interface ConsoleHook {
  fleetConsole?: { renderedVehicles(): number };
}

function shippedSizes() {
  const sizes = JSON.parse(readFileSync(join(repoRoot, 'dist/console/sizes.json'), 'utf8')) as Record<
    string,
    { bytes: number; gzipBytes: number }
  >;
  const shipped = ['app.js', 'app.css', 'maplibre-gl-worker.mjs'];
  const gzipKb = shipped.reduce((sum, name) => sum + sizes[name].gzipBytes, 0) / 1024;
  return {
    files: sizes,
    shippedJsCssGzipKb: round(gzipKb, 1),
    basemapGzipKb: round(sizes['basemap.json'].gzipBytes / 1024, 1),
  };
}

/** Keys the bench needs: one for the console (every read action), one for the batch endpoint. */
async function benchKeys(databaseUrl: string, companyId: number) {
  const source = await new DataSource(
    dataSourceOptions(authSchema, { url: databaseUrl, migrateOnStart: false, poolSize: 1 }, 'bench'),
  ).initialize();
  try {
    const keys = createAuthAdmin(source).apiKeys;
    const console = await keys.create({ companyId, label: 'console bench' });
    const writer = await keys.create({
      companyId,
      label: 'console bench feed',
      actions: [Actions.writePositions],
    });
    return { console: console.key, writer: writer.key };
  } finally {
    await source.destroy();
  }
}

async function tokenOf(baseUrl: string, apiKey: string): Promise<string> {
  const issued = await fetch(`${baseUrl}/v2/api/authentication/token/api-key`, {
    method: 'POST',
    body: new URLSearchParams({ apiKey }),
  });
  if (issued.status !== 200) throw new Error(`token: ${issued.status} ${await issued.text()}`);
  return ((await issued.json()) as { access_token: string }).access_token;
}

/** One position of every vehicle, a little further along a circle around Berlin each second. */
async function reportAll(
  url: string,
  token: string,
  imeis: readonly string[],
  second: number,
): Promise<void> {
  const at = new Date().toISOString();
  const sends: Promise<void>[] = [];
  for (let start = 0; start < imeis.length; start += BATCH) {
    const positions = imeis.slice(start, start + BATCH).map((imei, offset) => {
      const index = start + offset;
      const angle = (index / imeis.length) * Math.PI * 2 + second * 0.0005;
      const radius = 0.05 + (index % 50) * 0.004;
      return {
        deviceId: imei,
        timestamp: at,
        lat: 52.52 + radius * Math.cos(angle),
        lon: 13.405 + radius * 1.6 * Math.sin(angle),
        speed: 30 + (index % 40),
        bearing: Math.round(((angle * 180) / Math.PI + 90) % 360),
        ignition: true,
      };
    });
    sends.push(
      fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ positions }),
      }).then(async (response) => {
        if (response.status !== 200) throw new Error(`batch: ${response.status} ${await response.text()}`);
      }),
    );
  }
  await Promise.all(sends);
}

async function signIn(page: Page, baseUrl: string, apiKey: string): Promise<number> {
  await page.goto(`${baseUrl}/console/`);
  await page.getByLabel('API key').fill(apiKey);
  const started = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name: 'Sign in' }).click();
  const drawn = await page.waitForFunction(
    () => ((window as unknown as ConsoleHook).fleetConsole?.renderedVehicles() ?? 0) > 0 && performance.now(),
    null,
    { timeout: 30_000, polling: 'raf' },
  );
  return ((await drawn.jsonValue()) as number) - started;
}

async function main(): Promise<void> {
  const calibrationBefore = calibrate();
  guardRun(20);
  const sizes = shippedSizes();
  log(`console: ${sizes.shippedJsCssGzipKb} KB of JavaScript and CSS, gzipped`);
  const setup = await embeddedSetup(VEHICLES, 100);
  const fleet = setup.ingest;
  const companyId = await firstCompanyId(setup.pool);
  const keys = await benchKeys(setup.databaseUrl, companyId);
  const writer = await tokenOf(fleet.baseUrl, keys.writer);
  const imeis = setup.vehicles.map((vehicle) => vehicle.imei);
  const batchUrl = `${fleet.baseUrl}/ingest/v1/positions`;
  // Every vehicle has a last position before anyone signs in.
  await reportAll(batchUrl, writer, imeis, 0);
  for (;;) {
    if ((await countRows(setup.pool, 'query.last_positions')) >= VEHICLES) break;
    await sleep(250);
  }
  log(`${VEHICLES} vehicles with a last position`);

  const browser = await launchChromium();
  try {
    const signIns: number[] = [];
    for (let run = 0; run < SIGN_INS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      signIns.push(round(await signIn(page, fleet.baseUrl, keys.console), 0));
      await context.close();
    }
    log(`sign-in → first marker: ${signIns.join(', ')} ms`);

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, fleet.baseUrl, keys.console);
    const meter = new CpuMeter({
      fleet: { pids: () => [fleet.pid] },
      postgres: { command: 'postgres' },
      chromium: { command: 'chromium' },
    });
    let stop = false;
    let second = 1;
    let lateSeconds = 0;
    const feeding = (async () => {
      const start = Date.now();
      while (!stop) {
        await reportAll(batchUrl, writer, imeis, second);
        second++;
        const wait = start + second * 1_000 - Date.now() - 1_000;
        if (wait > 0) await sleep(wait);
        else lateSeconds++;
      }
    })();
    log(`feeding ${VEHICLES} positions/s; measuring frames after ${WARMUP_SECONDS} s for ${SECONDS} s`);
    await sleep(WARMUP_SECONDS * 1_000);
    const stopMeter = meter.start();
    const frames = await page.evaluate(
      (seconds) =>
        new Promise<number[]>((resolve) => {
          const intervals: number[] = [];
          let last = performance.now();
          const end = last + seconds * 1_000;
          const tick = (now: number) => {
            intervals.push(now - last);
            last = now;
            if (now < end) requestAnimationFrame(tick);
            else resolve(intervals);
          };
          requestAnimationFrame(tick);
        }),
      SECONDS,
    );
    const cpu = stopMeter();
    stop = true;
    await feeding;
    const sorted = [...frames].sort((a, b) => a - b);
    const frameTimes = {
      frames: frames.length,
      framesPerSecond: round(frames.length / SECONDS, 1),
      p50: round(percentile(sorted, 50), 1),
      p95: round(percentile(sorted, 95), 1),
      p99: round(percentile(sorted, 99), 1),
      max: round(sorted[sorted.length - 1], 1),
      /** Frames over 50 ms, and the share of the measured time spent in them (what a user feels as lag). */
      over50: frames.filter((frame) => frame > 50).length,
      timeInFramesOver50Percent: round(
        (100 * frames.filter((frame) => frame > 50).reduce((sum, frame) => sum + frame, 0)) /
          (SECONDS * 1_000),
        1,
      ),
    };
    const vehiclesShown = Number(await page.getAttribute('[data-testid=map]', 'data-vehicle-count'));
    const signInSorted = [...signIns].sort((a, b) => a - b);
    const result = {
      bench: 'console',
      machine: machineFacts(calibrationBefore),
      config: {
        vehicles: VEHICLES,
        seconds: SECONDS,
        warmupSeconds: WARMUP_SECONDS,
        signIns: SIGN_INS,
        viewport: '1280x800',
        renderer: 'SwiftShader (CPU)',
      },
      sizes,
      signInToFirstMarkerMs: {
        runs: signIns,
        median: signInSorted[Math.floor(signInSorted.length / 2)],
        max: signInSorted[signInSorted.length - 1],
      },
      updates: {
        positionsPerSecondOffered: VEHICLES,
        secondsFedLate: lateSeconds,
        vehiclesShown,
        frameTimeMs: frameTimes,
        cpuPercentOfOneCore: cpu,
        pageErrors: errors,
      },
      targets: TARGET,
      meetsTargets: {
        shipped: sizes.shippedJsCssGzipKb <= TARGET.shippedGzipKb,
        signIn: signInSorted[signInSorted.length - 1] <= TARGET.signInToFirstMarkerMs,
        responsive: frameTimes.p95 <= TARGET.frameTimeP95Ms && vehiclesShown === VEHICLES,
      },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await browser.close();
  }
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`bench/console failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
