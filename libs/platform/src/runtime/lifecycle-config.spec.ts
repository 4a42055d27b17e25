import { EnvReader } from '../config/env-reader';
import { databaseHostOf } from './dependency-check';
import { readLifecycleConfig, readRouteDirectory, serviceUrlSetting } from './lifecycle-config';
import { notServedHere } from '../http/create-service-app';

describe('lifecycle settings', () => {
  it('defaults to a 25 s shutdown with a 3 s drain and a 20 s start-up wait', () => {
    const env = new EnvReader({});
    expect(readLifecycleConfig(env)).toEqual({
      startupWaitMs: 20_000,
      shutdownTimeoutMs: 25_000,
      shutdownDrainMs: 3_000,
    });
    expect(() => env.assertValid()).not.toThrow();
  });

  it('refuses a drain as long as the whole shutdown, naming both settings', () => {
    const env = new EnvReader({ SHUTDOWN_TIMEOUT_SECONDS: '5', SHUTDOWN_DRAIN_SECONDS: '5' });
    readLifecycleConfig(env);
    expect(() => env.assertValid()).toThrow(
      /SHUTDOWN_DRAIN_SECONDS \(5\) must be less than SHUTDOWN_TIMEOUT_SECONDS \(5\)/,
    );
  });

  it('refuses a timeout that is not a positive number of seconds', () => {
    const env = new EnvReader({ SHUTDOWN_TIMEOUT_SECONDS: 'soon' });
    readLifecycleConfig(env);
    expect(() => env.assertValid()).toThrow(/SHUTDOWN_TIMEOUT_SECONDS must be an integer/);
  });
});

describe('route directory and the 404 of a route served elsewhere', () => {
  it('names each service URL setting after the service', () => {
    expect(serviceUrlSetting('query-api')).toBe('SERVICE_URL_QUERY_API');
  });

  it('names the owner and its configured address; nothing for a path no service serves', () => {
    const directory = readRouteDirectory(
      new EnvReader({ SERVICE_URL_QUERY_API: 'http://query:80', PUBLIC_BASE_URL: 'https://fleet.example' }),
    );
    const error = notServedHere('get', '/v2/api/vehicles/7/positions?from=1', directory);
    expect(error?.status).toBe(404);
    expect(error?.description).toBe(
      'GET /v2/api/vehicles/{id}/positions is not served by this service: it is served by query-api ' +
        '(http://query:80), or through the entry point https://fleet.example.',
    );
    expect(notServedHere('POST', '/api/GetCompanies', directory)?.description).toContain(
      'served by auth (http://127.0.0.1:3001)',
    );
    expect(notServedHere('GET', '/v2/api/unknown', directory)).toBeUndefined();
    expect(notServedHere('DELETE', '/v2/api/vehicles/7/positions', directory)).toBeUndefined();
  });
});

describe('databaseHostOf', () => {
  it('shows host and port, never the user or password', () => {
    expect(databaseHostOf('postgres://fleet:s3cret@db.internal/fleet')).toBe('db.internal:5432');
    expect(databaseHostOf('postgres://fleet:s3cret@10.0.0.5:6432/fleet')).toBe('10.0.0.5:6432');
  });
});
