import { readGeocoderConfig } from '@fleet/geo';
import { ConfigError, EnvReader } from '@fleet/platform';

// query-api reads its GEOCODER_* settings with @fleet/geo's reader, through the platform's EnvReader.
describe('readGeocoderConfig with the EnvReader', () => {
  it('defaults to the offline geocoder with a 10,000-answer cache', () => {
    const env = new EnvReader({});
    expect(readGeocoderConfig(env)).toEqual({
      provider: 'offline',
      nominatimUrl: undefined,
      userAgent: 'fleet-telemetry/0.1',
      cacheSize: 10_000,
    });
    expect(() => env.assertValid()).not.toThrow();
  });

  it('reads every setting', () => {
    const env = new EnvReader({
      GEOCODER_PROVIDER: 'nominatim',
      NOMINATIM_URL: 'http://nominatim.internal:8080',
      GEOCODER_USER_AGENT: 'acme-fleet/2.3 (ops@acme.example)',
      GEOCODER_CACHE_SIZE: '0',
    });
    expect(readGeocoderConfig(env)).toEqual({
      provider: 'nominatim',
      nominatimUrl: 'http://nominatim.internal:8080',
      userAgent: 'acme-fleet/2.3 (ops@acme.example)',
      cacheSize: 0,
    });
    expect(() => env.assertValid()).not.toThrow();
  });

  it('names every bad setting at once', () => {
    const env = new EnvReader({ GEOCODER_PROVIDER: 'nominatim', GEOCODER_CACHE_SIZE: '-1' });
    readGeocoderConfig(env);
    expect(() => env.assertValid()).toThrow(ConfigError);
    try {
      env.assertValid();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'NOMINATIM_URL is required when GEOCODER_PROVIDER=nominatim',
        'GEOCODER_CACHE_SIZE must be between 0 and inf, got -1',
      ]);
    }
  });

  it('refuses an unknown provider', () => {
    const env = new EnvReader({ GEOCODER_PROVIDER: 'google' });
    expect(readGeocoderConfig(env).provider).toBe('offline');
    expect(() => env.assertValid()).toThrow(
      'GEOCODER_PROVIDER must be one of offline, nominatim, none, got "google"',
    );
  });
});
