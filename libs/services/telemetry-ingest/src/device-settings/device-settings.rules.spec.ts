import { ApiException } from '@fleet/errors';
import {
  DeviceSettingNames,
  DeviceSettingsInput,
  deviceSettingsChange,
  MAX_ALLOWED_NETWORKS,
  MAX_CLOCK_OFFSET_SECONDS,
} from './device-settings.rules';

const NAMES: DeviceSettingNames = {
  profile: 'profile',
  networks: 'allowedNetworks',
  clockOffsetSeconds: 'clockOffsetSeconds',
  newSecret: 'newSecret',
  clearSecret: 'clearSecret',
  insecureCommands: 'insecureCommands',
};

/** The 422 description the rules give, or a failed test when they give none. */
function refusal(input: DeviceSettingsInput): string {
  try {
    deviceSettingsChange(input, NAMES);
  } catch (error) {
    if (error instanceof ApiException) {
      expect([error.status, error.code]).toEqual([422, 'INVALID_INPUT']);
      return error.description;
    }
    throw error;
  }
  throw new Error('expected the rules to refuse the input');
}

describe('deviceSettingsChange', () => {
  it('changes only what is given', () => {
    expect(deviceSettingsChange({ profile: 'teltonika-fmb-can' }, NAMES)).toEqual({
      commandProfile: 'teltonika-fmb-can',
    });
    expect(deviceSettingsChange({ clockOffsetSeconds: -7200, newSecret: true }, NAMES)).toEqual({
      clockOffsetSeconds: -7200,
      secret: 'new',
    });
    expect(deviceSettingsChange({ clearSecret: true, newSecret: false }, NAMES)).toEqual({ secret: 'clear' });
  });

  it('reads `default` as the protocol’s profile and `any` as no pinning', () => {
    expect(deviceSettingsChange({ profile: 'default', networks: 'any' }, NAMES)).toEqual({
      commandProfile: null,
      allowedNetworks: null,
    });
  });

  it('takes networks comma-separated, repeated or both, trimmed and without repeats', () => {
    expect(
      deviceSettingsChange(
        { networks: [' 10.64.0.0/16, 100.70.12.0/24', '10.64.0.0/16', '2001:db8::/32'] },
        NAMES,
      ),
    ).toEqual({ allowedNetworks: ['10.64.0.0/16', '100.70.12.0/24', '2001:db8::/32'] });
  });

  it('takes the clock offset as a number or its decimal text (the CLI)', () => {
    expect(deviceSettingsChange({ clockOffsetSeconds: '-7200' }, NAMES)).toEqual({
      clockOffsetSeconds: -7200,
    });
    expect(deviceSettingsChange({ clockOffsetSeconds: '+3600' }, NAMES)).toEqual({
      clockOffsetSeconds: 3600,
    });
    expect(deviceSettingsChange({ clockOffsetSeconds: -0 }, NAMES)).toEqual({ clockOffsetSeconds: 0 });
    expect(deviceSettingsChange({ clockOffsetSeconds: MAX_CLOCK_OFFSET_SECONDS }, NAMES)).toEqual({
      clockOffsetSeconds: MAX_CLOCK_OFFSET_SECONDS,
    });
  });

  it.each<[string, DeviceSettingsInput, RegExp]>([
    ['nothing at all', {}, /^profile: nothing to change: give one or more of profile, allowedNetworks/],
    ['only false flags', { newSecret: false, clearSecret: false }, /nothing to change/],
    [
      'an unknown profile',
      { profile: 'teltonika-fmx' },
      /^profile: "teltonika-fmx" is not a command profile \(default, teltonika-fmb, /,
    ],
    [
      'a profile name from Object.prototype',
      { profile: 'constructor' },
      /^profile: "constructor" is not a command profile/,
    ],
    ['an empty network list', { networks: ' , ' }, /^allowedNetworks: give address blocks/],
    ['any among networks', { networks: 'any,10.0.0.0/8' }, /^allowedNetworks: any stands alone/],
    [
      'a host name',
      { networks: '10.0.0.0/8,apn.example.com' },
      /^allowedNetworks: "apn.example.com" is not an IP address or CIDR block/,
    ],
    ['a prefix too long', { networks: '10.0.0.0/33' }, /"10.0.0.0\/33" is not an IP address/],
    [
      'too many networks',
      { networks: Array.from({ length: MAX_ALLOWED_NETWORKS + 1 }, (_, i) => `10.0.${i}.0/24`) },
      /at most 32 address blocks, not 33/,
    ],
    [
      'a fractional offset',
      { clockOffsetSeconds: 1.5 },
      /^clockOffsetSeconds: "1.5" is not a whole number of seconds/,
    ],
    ['an offset in hex', { clockOffsetSeconds: '0x10' }, /"0x10" is not a whole number/],
    [
      'an offset out of range',
      { clockOffsetSeconds: MAX_CLOCK_OFFSET_SECONDS + 1 },
      /must be between -1238630400 and 1238630400 seconds/,
    ],
    [
      'both secret flags',
      { newSecret: true, clearSecret: true },
      /^newSecret: give either newSecret or clearSecret, not both/,
    ],
  ])('refuses %s with a 422 naming the field', (_what, input, message) => {
    expect(refusal(input)).toMatch(message);
  });

  it('names the fields as the caller’s interface writes them (the CLI’s options)', () => {
    const cli = { ...NAMES, networks: '--networks' };
    expect(() => deviceSettingsChange({ networks: 'nowhere' }, cli)).toThrow(/^--networks: "nowhere"/);
  });

  it('cuts a long bad value short in its message', () => {
    expect(refusal({ profile: 'x'.repeat(5_000) }).length).toBeLessThan(200);
  });
});
