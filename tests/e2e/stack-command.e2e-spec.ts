import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, processAlive, StackProcess, TestDatabase, waitFor } from '@fleet/testing';

/** Far from the defaults and from the test broker (19092), so a developer's own stack can keep running. */
const PORT_OFFSET = 21_000;

interface Demo {
  baseUrl: string;
  companies: { id: number; apiKey: string }[];
  vehicles: { id: number; imei: string; companyIds: number[] }[];
}

/**
 * The acceptance of `npm run stack`: on a fresh data directory it starts the broker, the six services
 * and the entry point, seeds the demo tenant, and its positions can be read through the entry point;
 * Ctrl-C stops all of it.
 */
describe('npm run stack', () => {
  let database: TestDatabase;
  let dataDir: string;
  let stack: StackProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'fleet-stack-'));
  });

  afterAll(async () => {
    stack?.kill();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('brings everything up with demo data, serves positions through the entry point, and Ctrl-C leaves nothing running', async () => {
    stack = await StackProcess.start(
      ['--port-offset', String(PORT_OFFSET)],
      { DATABASE_URL: database.url, LOG_LEVEL: 'info' },
      dataDir,
    );
    const state = stack.state();
    expect(state.processes.map((process) => process.name).sort()).toEqual([
      'alert-engine',
      'auth',
      'command-gateway',
      'query-api',
      'simulator',
      'telemetry-ingest',
      'webhook-dispatcher',
    ]);
    const entry = state.entry!.url;
    expect(entry).toBe(`http://127.0.0.1:${8080 + PORT_OFFSET}`);

    const demo = stack.demoCredentials<Demo>();
    const company = demo.companies[0];
    const tokenResponse = await fetch(`${entry}/v2/api/authentication/token/api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ apiKey: company.apiKey }).toString(),
    });
    expect(tokenResponse.status).toBe(200);
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };

    // The simulated fleet reports every 5 s through the tracker port; its positions appear through the
    // entry point. The top company lists the demo vehicles mapped to it (a sub-company's vehicle only
    // when it is mapped to the top company too): three of the seven.
    const topVehicles = demo.vehicles.filter((vehicle) => vehicle.companyIds.includes(company.id));
    expect(topVehicles).toHaveLength(3);
    const positions = await waitFor(
      async () => {
        const response = await fetch(`${entry}/v2/api/companies/${company.id}/vehicles/last-position`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const body = (await response.json()) as { items?: { imei: string; utcTime: string }[] };
        return response.status === 200 && (body.items?.length ?? 0) === topVehicles.length
          ? body.items
          : undefined;
      },
      {
        timeoutMs: 90_000,
        intervalMs: 1_000,
        description: "every top company's demo vehicle to have a last position",
      },
    );
    expect(positions!.map((position) => position.imei).sort()).toEqual(
      topVehicles.map((vehicle) => vehicle.imei).sort(),
    );

    // The web console through the entry point: auth serves it, the edge routes it (docs/console.md).
    const consolePage = await fetch(`${entry}/console/`);
    expect(consolePage.status).toBe(200);
    expect(await consolePage.text()).toContain('<script type="module" src="app.js">');
    const consoleScript = await fetch(`${entry}/console/app.js`);
    expect(consoleScript.status).toBe(200);
    expect(consoleScript.headers.get('content-type')).toContain('text/javascript');
    expect((await consoleScript.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    // The entry point keeps each process's probes and metrics private.
    expect((await fetch(`${entry}/metrics`)).status).toBe(404);

    const pids = [state.pid, ...state.processes.map((process) => process.pid!)];
    const kafkaPid = Number(readFileSync(join(dataDir, 'kafka', 'kafka.pid'), 'utf8'));
    expect(pids.concat(kafkaPid).every(processAlive)).toBe(true);

    await stack.interrupt();
    // The stack says so once every process it started has ended, the broker included.
    expect(stack.events.map((event) => event.event)).toContain('stopped');
    expect(pids.concat(kafkaPid).filter(processAlive)).toEqual([]);
    await expect(fetch(entry)).rejects.toThrow();
    // A build, a broker and eight processes: minutes on a loaded two-core machine.
  }, 420_000);
});
