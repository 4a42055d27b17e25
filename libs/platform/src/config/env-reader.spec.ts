import { ConfigError, EnvReader, redactUrl } from './env-reader';
import { readServiceConfig } from './service-config';

describe('EnvReader', () => {
  it('reads typed values and falls back to defaults', () => {
    const env = new EnvReader({ PORT: '8080', ENABLED: 'yes', LIST: 'a, b,,c', NAME: '  x  ' });
    expect(env.port('PORT', 1)).toBe(8080);
    expect(env.bool('ENABLED', false)).toBe(true);
    expect(env.list('LIST')).toEqual(['a', 'b', 'c']);
    expect(env.string('NAME')).toBe('x');
    expect(env.int('MISSING', 7)).toBe(7);
    expect(() => env.assertValid()).not.toThrow();
  });

  it('reports every bad setting at once, each by name', () => {
    const env = new EnvReader({ PORT: 'eighty', FLAG: 'maybe', MODE: 'turbo', SIZE: '0', URL: 'not a url' });
    env.port('PORT');
    env.bool('FLAG');
    env.oneOf('MODE', ['slow', 'fast'] as const);
    env.int('SIZE', 1, { min: 1 });
    env.url('URL', ['postgres']);
    env.string('REQUIRED');
    let error: unknown;
    try {
      env.assertValid();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'PORT must be an integer, got "eighty"',
      'FLAG must be true or false, got "maybe"',
      'MODE must be one of slow, fast, got "turbo"',
      'SIZE must be between 1 and inf, got 0',
      'URL must be a URL, got "not a url"',
      'REQUIRED is required (a text value)',
    ]);
  });

  it('treats an empty variable as unset', () => {
    const env = new EnvReader({ DATABASE_URL: '  ' });
    expect(env.optionalString('DATABASE_URL')).toBeUndefined();
  });

  it('never shows a password of a URL it complains about', () => {
    expect(redactUrl('postgres://fleet:s3cret@db:5432/fleet')).toBe('postgres://fleet:***@db:5432/fleet');
    const env = new EnvReader({ DATABASE_URL: 'mysql://fleet:s3cret@db/fleet' });
    env.url('DATABASE_URL', ['postgres']);
    expect(() => env.assertValid()).toThrow(/DATABASE_URL must use postgres, got "mysql:"/);
  });
});

describe('readServiceConfig', () => {
  it('requires the database and, on Kafka, the brokers', () => {
    const env = new EnvReader({});
    readServiceConfig('query-api', env, { httpPort: 3003 });
    expect(() => env.assertValid()).toThrow(
      expect.objectContaining({
        problems: [
          'AUTH_JWT_SECRET is required (a secret of at least 32 characters)',
          'DATABASE_URL is required (a postgres or postgresql URL)',
          'KAFKA_BROKERS is required (a comma-separated list)',
        ],
      }),
    );
  });

  it('builds the in-process configuration without brokers', () => {
    const env = new EnvReader({
      AUTH_JWT_SECRET: '0123456789abcdef'.repeat(2),
      MESSAGING_TRANSPORT: 'in-process',
      DATABASE_URL: 'postgres://localhost/fleet',
      HTTP_PORT: '4000',
    });
    const config = readServiceConfig('fleet', env, { httpPort: 3000 });
    env.assertValid();
    expect(config).toMatchObject({
      service: 'fleet',
      http: { port: 4000, host: '0.0.0.0' },
      database: { url: 'postgres://localhost/fleet', migrateOnStart: true },
      messaging: { transport: 'in-process' },
      rateLimits: { store: 'memory', defaultWindows: [{ policy: 'minute', limit: 60 }], routes: {} },
    });
  });

  it.each([
    ['the example file', 'change-me-to-at-least-32-random-characters'],
    ['a placeholder', 'placeholder-placeholder-placeholder-0000'],
    ['one character repeated', 'x'.repeat(48)],
  ])('refuses a signing key that is %s, though long enough', (_what, secret) => {
    const env = new EnvReader({
      AUTH_JWT_SECRET: secret,
      DATABASE_URL: 'postgres://localhost/fleet',
      KAFKA_BROKERS: 'k:9092',
    });
    readServiceConfig('auth', env, { httpPort: 3001 });
    expect(() => env.assertValid()).toThrow(
      expect.objectContaining({
        problems: ['AUTH_JWT_SECRET is a placeholder (e.g. from docker/.env.example): set a random one'],
      }),
    );
  });

  it('refuses a short signing key without echoing it, and malformed rate limits', () => {
    const env = new EnvReader({
      AUTH_JWT_SECRET: 'short-secret',
      DATABASE_URL: 'postgres://localhost/fleet',
      KAFKA_BROKERS: 'k:9092',
      RATE_LIMIT_DEFAULT: 'minute=sixty',
      RATE_LIMIT_ROUTES: '{"GET /v2/api/companies/{id}/alerts": "second=5,hour=1000"}',
    });
    readServiceConfig('query-api', env, { httpPort: 3003 });
    expect(() => env.assertValid()).toThrow(
      expect.objectContaining({
        problems: [
          'AUTH_JWT_SECRET is too short: at least 32 characters are required',
          'RATE_LIMIT_DEFAULT must look like "minute=60,second=5", got "minute=sixty"',
        ],
      }),
    );
  });

  it("reads per-route windows in the spec's path form", () => {
    const env = new EnvReader({
      AUTH_JWT_SECRET: '0123456789abcdef'.repeat(2),
      DATABASE_URL: 'postgres://localhost/fleet',
      KAFKA_BROKERS: 'k:9092',
      RATE_LIMIT_ROUTES: '{"GET /v2/api/companies/{id}/alerts": "second=5,hour=1000"}',
    });
    const config = readServiceConfig('query-api', env, { httpPort: 3003 });
    env.assertValid();
    expect(config.rateLimits.routes).toEqual({
      'GET /v2/api/companies/:id/alerts': [
        { policy: 'second', limit: 5 },
        { policy: 'hour', limit: 1000 },
      ],
    });
    expect(config.rateLimits.store).toBe('redis');
  });
});
