import { SourceNetworks } from '../osmand/source-networks';
import { admissionRefusal } from './device-admission';
import { hashDeviceSecret } from './device-secret';
import { DeviceSettings, NO_DEVICE_SETTINGS } from './device-settings.model';

describe('admissionRefusal', () => {
  const SECRET = 'q8ZP0yq3r2m1h5W3vUx9aTnK7cB4dE6f';
  const withSecret: DeviceSettings = { ...NO_DEVICE_SETTINGS, secretHash: hashDeviceSecret(SECRET) };
  const pinned: DeviceSettings = {
    ...NO_DEVICE_SETTINGS,
    allowedNetworks: SourceNetworks.parse(['10.64.0.0/16']),
  };

  it('admits any report of a device without settings', () => {
    expect(admissionRefusal(NO_DEVICE_SETTINGS, '203.0.113.9', undefined)).toBeUndefined();
    expect(admissionRefusal(NO_DEVICE_SETTINGS, '203.0.113.9', 'anything')).toBeUndefined();
  });

  it('requires the secret once one is set, and only the right one', () => {
    expect(admissionRefusal(withSecret, '203.0.113.9', undefined)).toBe('secret_required');
    expect(admissionRefusal(withSecret, '203.0.113.9', 'wrong')).toBe('secret_wrong');
    expect(admissionRefusal(withSecret, '203.0.113.9', SECRET)).toBeUndefined();
  });

  it('refuses a pinned device from elsewhere, IPv4-mapped addresses included', () => {
    expect(admissionRefusal(pinned, '203.0.113.9', undefined)).toBe('source_not_allowed');
    expect(admissionRefusal(pinned, undefined, undefined)).toBe('source_not_allowed');
    expect(admissionRefusal(pinned, '10.64.3.4', undefined)).toBeUndefined();
    expect(admissionRefusal(pinned, '::ffff:10.64.3.4', undefined)).toBeUndefined();
  });

  it('judges the network before the secret: the right secret from the wrong place is refused', () => {
    const both = { ...pinned, secretHash: withSecret.secretHash };
    expect(admissionRefusal(both, '203.0.113.9', SECRET)).toBe('source_not_allowed');
    expect(admissionRefusal(both, '10.64.3.4', 'wrong')).toBe('secret_wrong');
    expect(admissionRefusal(both, '10.64.3.4', SECRET)).toBeUndefined();
  });
});
