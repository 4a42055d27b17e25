import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnvReader } from '@fleet/platform';
import { readFleetConfig } from './fleet-config';

const dataDir = mkdtempSync(join(tmpdir(), 'fleet-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const read = (env: Record<string, string>) =>
  readFleetConfig(
    new EnvReader({
      AUTH_JWT_SECRET: 'k3J9vQ2xT7mP4wR8zL6nB1cY5hF0dS3g',
      DATABASE_URL: 'postgres://127.0.0.1:5432/fleet',
      FLEET_DATA_DIR: dataDir,
      ...env,
    }),
  );

describe('the embedded app’s webhook secret key', () => {
  it('is generated into the data directory once, readable by its owner only, and reused', () => {
    const first = read({}).webhookDispatcher.secretKey;
    expect(first).toHaveLength(32);
    const file = join(dataDir, 'webhook-secret-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url')).toEqual(first);
    expect(read({}).webhookDispatcher.secretKey).toEqual(first);
  });

  it('comes from WEBHOOK_SECRET_KEY when set', () => {
    const key = 'ab'.repeat(32);
    expect(read({ WEBHOOK_SECRET_KEY: key }).webhookDispatcher.secretKey).toEqual(Buffer.from(key, 'hex'));
  });
});

describe('the embedded app’s network defaults', () => {
  it('listen on this machine only by default, the API and the tracker port alike', () => {
    const config = read({});
    expect([config.http.host, config.ingest.device.host]).toEqual(['127.0.0.1', '127.0.0.1']);
  });

  it('believe no X-Forwarded-For by default: clients reach the embedded app directly', () => {
    expect(read({}).http.trustedProxies).toEqual([]);
    expect(read({ HTTP_TRUSTED_PROXIES: '10.0.0.0/8' }).http.trustedProxies).toEqual(['10.0.0.0/8']);
  });

  it('open both to the network when HTTP_HOST says so', () => {
    const config = read({ HTTP_HOST: '0.0.0.0' });
    expect([config.http.host, config.ingest.device.host]).toEqual(['0.0.0.0', '0.0.0.0']);
  });

  it('let INGEST_DEVICE_HOST set the tracker port apart', () => {
    const config = read({ INGEST_DEVICE_HOST: '0.0.0.0' });
    expect([config.http.host, config.ingest.device.host]).toEqual(['127.0.0.1', '0.0.0.0']);
  });
});
