import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '@fleet/testing';

/** Runs a compiled app with exactly `env` (plus PATH) and returns how it ended. */
function boot(app: string, env: Record<string, string>) {
  const result = spawnSync(
    process.execPath,
    ['-r', join(repoRoot, 'scripts/runtime-aliases.cjs'), join(repoRoot, `dist/apps/${app}/src/main.js`)],
    { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', timeout: 30_000 },
  );
  return { status: result.status, stderr: result.stderr };
}

describe('a service with bad configuration', () => {
  it.each(['auth', 'telemetry-ingest', 'query-api', 'command-gateway', 'alert-engine', 'webhook-dispatcher'])(
    '%s stops at boot naming each missing setting',
    (app) => {
      const { status, stderr } = boot(app, {});
      expect(status).toBe(78);
      expect(stderr).toContain('DATABASE_URL is required');
      expect(stderr).toContain('KAFKA_BROKERS is required');
    },
  );

  it('names a malformed setting and the value it got, hiding passwords', () => {
    const { status, stderr } = boot('query-api', {
      DATABASE_URL: 'mysql://fleet:s3cret@db/fleet',
      KAFKA_BROKERS: '127.0.0.1:9092',
      HTTP_PORT: 'eighty',
    });
    expect(status).toBe(78);
    expect(stderr).toContain('HTTP_PORT must be an integer, got \\"eighty\\"');
    expect(stderr).toContain('DATABASE_URL must use postgres or postgresql');
    expect(stderr).not.toContain('s3cret');
  });
});
