/// <reference lib="dom" />
// (The callbacks given to page.waitForFunction run in the browser.)
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { AppProcess, freePort, launchChromium, repoRoot, waitFor } from '@fleet/testing';

/** Screenshots of failures (and the README's picture) land here: CI keeps the folder as artefacts. */
const ARTIFACTS = join(repoRoot, '.data', 'test-artifacts');

interface DemoCredentials {
  ingest: { osmand: string };
  companies: { id: number; name: string; apiKey: string; status: string }[];
  users: { userName: string; password: string; companyId: number }[];
  vehicles: { id: number; name: string; imei: string; companyIds: number[] }[];
}

/**
 * The web console (docs/console.md) in a real browser (Debian's chromium, driven by playwright-core)
 * against the embedded app as `npm start` runs it, with its demo tenant and simulated fleet. Every
 * check is read back from the public API, not from the page alone.
 */
describe('the web console in a browser', () => {
  let dataDir: string;
  let fleet: AppProcess;
  let browser: Browser;
  let page: Page;
  let credentials: DemoCredentials;
  let token: string;
  const problems: string[] = [];

  const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${fleet.baseUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const company = () => credentials.companies[0];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'fleet-console-'));
    await mkdir(ARTIFACTS, { recursive: true });
    fleet = await AppProcess.start(
      'fleet',
      {
        FLEET_DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(await freePort()),
        DATABASE_URL: '',
        LOG_LEVEL: 'warn',
      },
      90_000,
    );
    credentials = JSON.parse(
      await readFile(join(dataDir, 'demo-credentials.json'), 'utf8'),
    ) as DemoCredentials;
    // The test reads the API as the demo user: a rate-limit budget of its own, apart from the key the
    // browser signs in with (60 requests a minute each by default).
    const [user] = credentials.users;
    const issued = await fetch(`${fleet.baseUrl}/api/Authentication/token/user`, {
      method: 'POST',
      body: new URLSearchParams({ UserName: user.userName, Password: user.password }),
    });
    expect(issued.status).toBe(200);
    token = ((await issued.json()) as { access_token: string }).access_token;
    // The demo fleet is live once every vehicle of the company has a last position: the simulator
    // sends two hours of history first, which takes a while on a busy machine.
    const demoVehicles = credentials.vehicles.filter((vehicle) => vehicle.companyIds.includes(company().id));
    await waitFor(
      async () =>
        (
          await api<{ totalResults: number }>(
            `/v2/api/companies/${company().id}/vehicles/last-position?pageSize=1`,
          )
        ).totalResults === demoVehicles.length,
      { timeoutMs: 150_000, intervalMs: 2_000, description: 'every demo vehicle of the company to report' },
    );
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  }, 300_000);

  afterEach(async () => {
    // Jest tells an afterEach nothing of the test's outcome: each test's last screen is kept, so a
    // failure's is there to look at.
    const name = (expect.getState().currentTestName ?? 'test').replace(/[^\w]+/g, '-').slice(0, 80);
    await page?.screenshot({ path: join(ARTIFACTS, `console-${name}.png`) }).catch(() => undefined);
  });

  afterAll(async () => {
    await browser?.close();
    await fleet?.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
  });

  const vehicleCount = () => page.getAttribute('[data-testid=map]', 'data-vehicle-count');

  it('signs in with the demo key and draws one marker per vehicle of the company', async () => {
    await page.goto(`${fleet.baseUrl}/console/`);
    await page.getByLabel('API key').fill(company().apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const lastPositions = await api<{ totalResults: number }>(
      `/v2/api/companies/${company().id}/vehicles/last-position?pageSize=1`,
    );
    expect(lastPositions.totalResults).toBeGreaterThan(0);
    await page.waitForFunction(
      (expected) =>
        document.querySelector<HTMLElement>('[data-testid=map]')?.dataset.vehicleCount === expected,
      String(lastPositions.totalResults),
      { timeout: 20_000 },
    );
    expect(await vehicleCount()).toBe(String(lastPositions.totalResults));
    await expect(page.locator('[data-testid=vehicle-item]').count()).resolves.toBe(
      lastPositions.totalResults,
    );
    await page.getByTestId('stream-status').filter({ hasText: 'Live' }).waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'console-map.png') });
  });

  it('moves a marker when its vehicle reports to a tracker port', async () => {
    const vehicle = credentials.vehicles.find((candidate) => candidate.companyIds.includes(company().id))!;
    // A place the demo route never takes: the marker is there only if this report moved it.
    const [lat, lng] = [52.4321, 13.1234];
    const report = new URLSearchParams({
      id: vehicle.imei,
      lat: String(lat),
      lon: String(lng),
      timestamp: String(Math.floor(Date.now() / 1000)),
      speed: '20',
    });
    // As a tracker does, the report is sent again while the port answers 429 (the simulated fleet's
    // trackers share this test's address, 127.0.0.1, and its per-address budget).
    await waitFor(
      async () => (await fetch(`${credentials.ingest.osmand}/?${report}`, { method: 'POST' })).status === 200,
      // At startup the simulator's first reports can precede telemetry-ingest learning the vehicles:
      // refused as unknown, they count against the address's budget of such answers, which then
      // throttles it (429) for up to a minute.
      { timeoutMs: 90_000, intervalMs: 2_000, description: 'the OsmAnd port to take the report' },
    );
    await page.waitForFunction(
      ([id, expected]) => {
        const point = (
          window as unknown as { fleetConsole: { vehiclePoint(id: number): number[] | null } }
        ).fleetConsole.vehiclePoint(id as number);
        return !!point && Math.abs(point[0] - expected[1]) < 1e-6 && Math.abs(point[1] - expected[0]) < 1e-6;
      },
      [vehicle.id, [lat, lng]] as const,
      { timeout: 20_000, polling: 50 },
    );
  });

  it('draws a trip of the replay routes and replays it', async () => {
    await page.goto(`${fleet.baseUrl}/console/#/trips`);
    const vehicle = credentials.vehicles.find((candidate) => candidate.companyIds.includes(company().id))!;
    // The day of a trip the replay route knows: the demo's history (the last two hours) is sent at
    // the start and becomes trips as the app works through it, later on a busy machine.
    const known = await waitFor(
      async () => {
        const trips = await api<{ items: { startTime: string }[] }>(
          `/v2/api/replay/${vehicle.id}?pageSize=1`,
        );
        return trips.items.length > 0 ? trips : undefined;
      },
      {
        timeoutMs: 90_000,
        intervalMs: 2_000,
        description: `a trip of vehicle ${vehicle.id} in the replay route`,
      },
    );
    const day = known.items[0].startTime.slice(0, 10);
    const select = page.locator('select[name=vehicle]');
    await select.locator(`option[value="${vehicle.id}"]`).waitFor({ state: 'attached' });
    await select.selectOption(String(vehicle.id));
    await expect(select.inputValue()).resolves.toBe(String(vehicle.id));
    await page.locator('input[name=day]').fill(day);
    await page.getByRole('button', { name: 'Show trips' }).click();
    const firstTrip = page.getByTestId('trip-item').first();
    await firstTrip.waitFor({ timeout: 20_000 });
    await firstTrip.click();
    await page.waitForFunction(
      () => Number(document.querySelector<HTMLElement>('[data-testid=map]')?.dataset.tripPoints) > 1,
      null,
      { timeout: 10_000 },
    );
    const clockBefore = await page.getByTestId('replay-clock').textContent();
    await page.getByRole('button', { name: 'Play' }).click();
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid=replay-clock]')?.textContent !== before,
      clockBefore,
      { timeout: 10_000 },
    );
  });

  it('locks the doors of a vehicle and shows the command acknowledged by the simulated device', async () => {
    await page.goto(`${fleet.baseUrl}/console/#/vehicles`);
    const vehicle = credentials.vehicles.find((candidate) => candidate.companyIds.includes(company().id))!;
    await page.locator(`[data-testid=vehicle-item][data-vehicle-id="${vehicle.id}"]`).click();
    await page.getByTestId('vehicle-panel').getByRole('button', { name: 'Lock doors', exact: true }).click();
    // The panel shows the last position record, with how it came in (a tracker port here).
    await expect(page.locator('[data-fact=Protocol]').textContent()).resolves.toMatch(
      /^(osmand|teltonika|gt06)$/,
    );
    const status = page.getByTestId('command-status').first();
    await status.waitFor({ timeout: 10_000 });
    const commandId = await status.getAttribute('data-command-id');
    try {
      await page
        .locator(`[data-testid=command-status][data-command-id="${commandId}"][data-status=acknowledged]`)
        .waitFor({ timeout: 60_000 });
    } catch (error) {
      // Which side stopped: the command (the API's record), the page (what it shows, its stream) or
      // the device's session (the app's log).
      const record = await fetch(`${fleet.baseUrl}/v2/api/commands/${commandId}`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((response) => response.text());
      const shown = await status.getAttribute('data-status', { timeout: 1_000 }).catch(String);
      const stream = await page.getByTestId('stream-status').textContent({ timeout: 1_000 }).catch(String);
      throw new Error(
        `${(error as Error).message}\nthe API's record: ${record}\nthe page shows ${shown}, stream ${stream}` +
          `\nthe app's last lines:\n${fleet.logs().split('\n').slice(-40).join('\n')}`,
      );
    }
    // The picture of docs/console.md and the README is this screen.
    await page.screenshot({ path: join(ARTIFACTS, 'console-vehicle.png') });
    const command = await api<{ status: string; type: string; isLock: boolean }>(
      `/v2/api/commands/${commandId}`,
    );
    expect(command).toMatchObject({ status: 'acknowledged', type: 'doorLock', isLock: true });
  });

  it('creates a geofence drawn as a circle on the map', async () => {
    await page.goto(`${fleet.baseUrl}/console/#/geofences`);
    await page.getByTestId('geofence-item').first().waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Draw circle' }).click();
    const box = (await page.getByTestId('map').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.click(box.x + box.width / 2 + 60, box.y + box.height / 2);
    await page.getByTestId('draw-hint').filter({ hasText: 'Radius' }).waitFor();
    const name = `Drawn ${Date.now()}`;
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('geofence-item').filter({ hasText: name }).waitFor({ timeout: 10_000 });
    const geofences = await api<{ items: { name: string; circle: { radiusM: number } | null }[] }>(
      `/v2/api/companies/${company().id}/geofences?pageSize=100`,
    );
    const drawn = geofences.items.find((geofence) => geofence.name === name);
    expect(drawn?.circle?.radiusM).toBeGreaterThan(0);
  });

  it('marks an alert read, as the alert-records route then says', async () => {
    await page.goto(`${fleet.baseUrl}/console/#/alerts`);
    const unread = page.locator('[data-testid=alert-item][data-read=false]').first();
    // The demo fleet raises alerts within its first minutes (its history first): wait for one.
    await unread.waitFor({ timeout: 90_000 });
    const alertId = Number(await unread.getAttribute('data-alert-id'));
    await unread.getByRole('button', { name: 'Mark read' }).click();
    await page.locator(`[data-testid=alert-item][data-alert-id="${alertId}"][data-read=true]`).waitFor();
    await waitFor(
      async () => {
        const records = await api<{ items: { id: number; isRead: boolean }[] }>(
          `/v2/api/companies/${company().id}/alert-records?pageSize=500&isRead=true`,
        );
        return records.items.some((record) => record.id === alertId);
      },
      { intervalMs: 1_000, description: `alert record ${alertId} to read as read` },
    );
  });

  it('creates a webhook showing its secret once, deactivates it and deletes it', async () => {
    await page.goto(`${fleet.baseUrl}/console/#/webhooks`);
    const url = `https://hooks.example.com/console-${Date.now()}`;
    await page.getByLabel('URL').fill(url);
    await page.getByRole('button', { name: 'Create' }).click();
    const secret = (await page.getByTestId('webhook-secret').locator('code').textContent())!;
    expect(secret.length).toBeGreaterThan(10);
    const listed = async () =>
      (
        await api<{ items: { id: number; url: string; isActive: boolean }[] }>(
          '/v2/api/webhooks?pageSize=100',
        )
      ).items.find((webhook) => webhook.url === url);
    expect(await listed()).toMatchObject({ isActive: true });
    const item = page.getByTestId('webhook-item').filter({ hasText: url });
    await item.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await item.getByRole('button', { name: 'Activate', exact: true }).waitFor();
    expect(await listed()).toMatchObject({ isActive: false });
    page.once('dialog', (dialog) => void dialog.accept());
    await item.getByRole('button', { name: 'Delete' }).click();
    await item.waitFor({ state: 'detached' });
    expect(await listed()).toBeUndefined();
  });

  it('fits a phone screen: the map above the vehicle list, nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${fleet.baseUrl}/console/#/vehicles`);
      await page.getByTestId('vehicle-item').first().waitFor();
      const map = (await page.getByTestId('map').boundingBox())!;
      const list = (await page.getByRole('list', { name: 'Vehicles' }).boundingBox())!;
      expect(map.width).toBeLessThanOrEqual(390);
      expect(map.height).toBeGreaterThan(200);
      expect(list.y).toBeGreaterThanOrEqual(map.y + map.height - 1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(ARTIFACTS, 'console-phone.png') });
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('shows every section without an error in the browser console', async () => {
    // Each section, with what it shows once its data has come.
    const sections: [string, string][] = [
      ['vehicles', '[data-testid=vehicle-item]'],
      ['trips', 'select[name=vehicle] option'],
      ['alerts', '[data-testid=alert-item]'],
      ['geofences', '[data-testid=geofence-item]'],
      ['webhooks', 'form[aria-label="New webhook"]'],
      ['insights', '[data-testid=safety-score]'],
    ];
    for (const [section, loaded] of sections) {
      await page.goto(`${fleet.baseUrl}/console/#/${section}`);
      await page.locator(`nav a[href="#/${section}"][aria-current=page]`).waitFor();
      await page.locator(loaded).first().waitFor({ state: 'attached', timeout: 15_000 });
    }
    expect(problems).toEqual([]);
  });
});
