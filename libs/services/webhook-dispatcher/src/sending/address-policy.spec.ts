import { AddressPolicy, InvalidCidrError, parseAllowedCidr } from './address-policy';

/** `[address, words the refusal names]`: every one refused by the default policy (empty allow-list). */
const refused: [string, string][] = [
  // IPv4
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['169.254.169.254', 'link-local'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.127.255.254', 'carrier-grade NAT'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.254', 'private'],
  ['192.168.1.1', 'private'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['192.0.2.1', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.254', 'reserved'],
  ['192.0.0.8', 'reserved'],
  ['192.88.99.1', 'reserved'],
  // IPv6
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['ff02::1', 'multicast'],
  ['ff05::2', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['fec0::1', 'site-local'],
  ['2001::1', 'Teredo'],
  ['::ffff:0:7f00:1', 'IPv4-translated'],
  ['64:ff9b:1::1', 'NAT64 (RFC 6052)'],
  ['100::1', 'discard'],
  // IPv4 inside IPv6: judged as the IPv4 address, or refused by prefix.
  ['::ffff:127.0.0.1', '127.0.0.1 is loopback'],
  ['::ffff:7f00:1', '127.0.0.1 is loopback'],
  ['::ffff:10.0.0.1', '10.0.0.1 is private'],
  ['::ffff:169.254.169.254', '169.254.169.254 is link-local'],
  ['::ffff:0.0.0.0', '0.0.0.0 is unspecified'],
  ['64:ff9b::7f00:1', 'NAT64 prefix 64:ff9b::/96'],
  ['64:ff9b::808:808', 'NAT64 prefix 64:ff9b::/96'],
  ['2002:7f00:1::', '6to4 prefix 2002::/16'],
  ['2002:808:808::1', '6to4 prefix 2002::/16'],
  ['::7f00:1', 'IPv4-compatible'],
  ['::808:808', 'IPv4-compatible'],
];

describe('AddressPolicy', () => {
  const policy = new AddressPolicy([]);

  it.each(refused)('refuses %s (%s)', (address, words) => {
    const verdict = policy.classify(address);
    expect(verdict.allowed).toBe(false);
    expect(verdict).toEqual({ allowed: false, reason: expect.stringContaining(words) as string });
  });

  it.each([
    ['8.8.8.8', 4],
    ['93.184.215.14', 4],
    ['172.32.0.1', 4], // just past 172.16.0.0/12
    ['100.128.0.1', 4], // just past 100.64.0.0/10
    ['2606:4700:4700::1111', 6],
    ['2a00:1450:4001:830::200e', 6],
  ])('allows the public unicast address %s', (address, family) => {
    expect(policy.classify(address)).toEqual({ allowed: true, checked: { address, family } });
  });

  it('connects to an IPv4-mapped public address as the IPv4 address it carries', () => {
    expect(policy.classify('::ffff:8.8.8.8')).toEqual({
      allowed: true,
      checked: { address: '8.8.8.8', family: 4 },
    });
  });

  it.each(['example.com', '0x7f000001', '2130706433', '127.1', '0177.0.0.1', '[::1]', ''])(
    'reads only addresses in their usual notation, never "%s" (new URL() normalises literals first)',
    (text) => {
      expect(policy.classify(text)).toEqual({
        allowed: false,
        reason: expect.stringContaining('not an IP address'),
      });
    },
  );

  describe('with an allow-list', () => {
    it('allows what an entry covers and nothing next to it', () => {
      const loopbackOne = new AddressPolicy(['127.0.0.1/32']);
      expect(loopbackOne.classify('127.0.0.1')).toEqual({
        allowed: true,
        checked: { address: '127.0.0.1', family: 4 },
      });
      expect(loopbackOne.classify('127.0.0.2')).toEqual({ allowed: false, reason: '127.0.0.2 is loopback' });
      expect(loopbackOne.classify('::1')).toEqual({ allowed: false, reason: '::1 is loopback' });
    });

    it('matches IPv4-mapped addresses against IPv4 entries, and mapped entries as IPv4 ranges', () => {
      expect(new AddressPolicy(['127.0.0.0/8']).classify('::ffff:127.0.0.5')).toEqual({
        allowed: true,
        checked: { address: '127.0.0.5', family: 4 },
      });
      const mappedEntry = new AddressPolicy(['::ffff:10.0.0.0/104']);
      expect(mappedEntry.classify('10.9.8.7').allowed).toBe(true);
      expect(mappedEntry.classify('11.0.0.1').allowed).toBe(true); // public anyway
      expect(mappedEntry.classify('192.168.0.1').allowed).toBe(false);
    });

    it('allows private IPv6 ranges and ::1 when listed', () => {
      const v6 = new AddressPolicy(['fd00::/8', '::1/128']);
      expect(v6.classify('fd00::5')).toEqual({ allowed: true, checked: { address: 'fd00::5', family: 6 } });
      expect(v6.classify('::1')).toEqual({ allowed: true, checked: { address: '::1', family: 6 } });
      expect(v6.classify('fc00::5').allowed).toBe(false);
      expect(v6.classify('127.0.0.1').allowed).toBe(false); // an IPv6 entry never covers IPv4
    });

    it('never opens unspecified, broadcast or multicast addresses, whatever the entry', () => {
      const everything = new AddressPolicy(['0.0.0.0/0', '::/0']);
      for (const address of ['0.0.0.0', '0.0.0.1', '255.255.255.255', '224.0.0.1', '::', 'ff02::1']) {
        expect(everything.classify(address).allowed).toBe(false);
      }
      // The control: the same entries do open private, loopback and link-local addresses.
      for (const address of ['127.0.0.1', '10.0.0.1', '169.254.169.254', '::1', 'fe80::1', 'fc00::1']) {
        expect(everything.classify(address).allowed).toBe(true);
      }
    });

    it('never opens the NAT64, 6to4 and IPv4-compatible prefixes, whatever the entry', () => {
      const everything = new AddressPolicy(['::/0', '64:ff9b::/96', '2002::/16']);
      for (const address of ['64:ff9b::7f00:1', '64:ff9b::a00:1', '2002:7f00:1::', '::7f00:1']) {
        expect(everything.classify(address)).toEqual({
          allowed: false,
          reason: expect.stringMatching(/NAT64 prefix|6to4 prefix|IPv4-compatible/) as string,
        });
      }
      expect(everything.classify('64:ff9b:1::1').allowed).toBe(true); // local-use NAT64 is the operator's call
    });
  });

  describe('allow-list entries', () => {
    it.each(['10.0.0.0/8', ' 10.0.0.0/8 ', '10.1.2.3/8', '127.0.0.1/32', 'fd00::/8', '::1/128', '0.0.0.0/0'])(
      'reads %p',
      (entry) => {
        expect(() => parseAllowedCidr(entry)).not.toThrow();
      },
    );

    it.each([
      'nope',
      '10.0.0.0',
      '10/8',
      '192.168/16',
      '0x7f000001/32',
      '127.1/32',
      '10.0.0.0/33',
      '::/129',
      '',
      '/8',
    ])('refuses %p with a message naming it', (entry) => {
      expect(() => new AddressPolicy(['127.0.0.1/32', entry])).toThrow(InvalidCidrError);
      expect(() => new AddressPolicy([entry])).toThrow(`"${entry}" is not a CIDR`);
    });
  });
});
