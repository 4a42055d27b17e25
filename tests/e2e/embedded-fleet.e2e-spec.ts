import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppProcess, freePort } from '@fleet/testing';

function postgresRunning(dataDir: string): boolean {
  return existsSync(join(dataDir, 'postgres', 'postmaster.pid'));
}

/**
 * The embedded default as `npm start` runs it: every service in one process on its own PostgreSQL.
 * (How fast it starts is measured by bench/startup, not asserted here.)
 */
describe('the embedded fleet app', () => {
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'fleet-embedded-'));
    // DATABASE_URL empty: the app must start its own PostgreSQL.
    env = {
      FLEET_DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      DATABASE_URL: '',
      LOG_LEVEL: 'info',
    };
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const start = () => AppProcess.start('fleet', env, 60_000);

  it('starts on a new data directory, stops cleanly, restarts on the same data, and survives SIGKILL', async () => {
    const first = await start();
    expect(first.logs()).toContain('initialising a new PostgreSQL data directory');
    const health = await (await fetch(`${first.baseUrl}/health/ready`)).json();
    expect(health).toEqual({
      status: 'ready',
      checks: {
        'in-process-broker': 'up',
        'database:auth': 'up',
        'database:ingest': 'up',
        'database:query': 'up',
        'database:commands': 'up',
        'database:alerts': 'up',
        'database:webhooks': 'up',
      },
    });
    expect(postgresRunning(dataDir)).toBe(true);

    // Ctrl-C: the services close, then PostgreSQL stops; nothing is left running.
    expect(await first.kill('SIGINT')).toBe(0);
    expect(postgresRunning(dataDir)).toBe(false);

    const second = await start();
    expect(second.logs()).toContain('PostgreSQL ready');
    expect(second.logs()).not.toContain('initialising a new PostgreSQL data directory');

    // A crash leaves PostgreSQL behind; the next start must stop it and carry on with the same data.
    await second.kill('SIGKILL');
    expect(postgresRunning(dataDir)).toBe(true);
    const third = await start();
    expect(third.logs()).toContain('stopping a PostgreSQL left running by an earlier run');
    expect(await third.kill('SIGTERM')).toBe(0);
    expect(postgresRunning(dataDir)).toBe(false);
  });
});
