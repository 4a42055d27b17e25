import { CachedGeocoder } from './cached-geocoder';
import { createGeocoder, DisabledGeocoder } from './create-geocoder';
import { NominatimGeocoder } from './nominatim-geocoder';
import { OfflineGeocoder } from './offline/offline-geocoder';

describe('createGeocoder', () => {
  it('switches geocoding off with provider none', async () => {
    const geocoder = createGeocoder({ provider: 'none' });
    expect(geocoder).toBeInstanceOf(DisabledGeocoder);
    await expect(geocoder.reverse(52.52, 13.405)).resolves.toBeNull();
  });

  it('builds the offline geocoder, cached, without loading its dataset yet', () => {
    const loading = jest.spyOn(OfflineGeocoder.prototype, 'load');
    expect(createGeocoder({ provider: 'offline' })).toBeInstanceOf(CachedGeocoder);
    expect(createGeocoder({ provider: 'offline', cacheSize: 0 })).toBeInstanceOf(OfflineGeocoder);
    expect(loading).not.toHaveBeenCalled();
    loading.mockRestore();
  });

  it('puts a cache of cacheSize entries in front of Nominatim', () => {
    const config = {
      provider: 'nominatim',
      nominatimUrl: 'http://nominatim.local',
      userAgent: 'fleet/1.0',
    } as const;
    expect(createGeocoder(config)).toBeInstanceOf(CachedGeocoder);
    expect(createGeocoder({ ...config, cacheSize: 50 })).toBeInstanceOf(CachedGeocoder);
    expect(createGeocoder({ ...config, cacheSize: 0 })).toBeInstanceOf(NominatimGeocoder);
  });

  it('refuses Nominatim without a URL or a User-Agent, naming the settings', () => {
    expect(() => createGeocoder({ provider: 'nominatim' })).toThrow(
      'The nominatim geocoder needs a Nominatim URL (NOMINATIM_URL) and a User-Agent (GEOCODER_USER_AGENT)',
    );
    expect(() => createGeocoder({ provider: 'nominatim', nominatimUrl: 'http://nominatim.local' })).toThrow(
      'The nominatim geocoder needs a User-Agent (GEOCODER_USER_AGENT)',
    );
  });
});
