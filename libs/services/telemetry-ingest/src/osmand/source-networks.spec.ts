import { SourceNetworks } from './source-networks';

describe('SourceNetworks', () => {
  it('admits every address when no network is listed', () => {
    expect(SourceNetworks.parse([]).admits('203.0.113.9')).toBe(true);
  });

  it('admits addresses inside the listed blocks only', () => {
    const networks = SourceNetworks.parse(['10.20.0.0/16', '192.0.2.7', '2001:db8::/32']);
    expect(networks.admits('10.20.255.1')).toBe(true);
    expect(networks.admits('10.21.0.1')).toBe(false);
    expect(networks.admits('192.0.2.7')).toBe(true);
    expect(networks.admits('192.0.2.8')).toBe(false);
    expect(networks.admits('2001:db8:1::5')).toBe(true);
    expect(networks.admits('2001:db9::5')).toBe(false);
    // What a dual-stack socket reports for an IPv4 client.
    expect(networks.admits('::ffff:10.20.3.4')).toBe(true);
    expect(networks.admits(undefined)).toBe(false);
  });

  it.each(['10.0.0.0/33', 'ten.0.0.0/8', '10.0.0.0/8/1', '10.0.0.0/x', '::/129'])(
    'refuses the entry %s',
    (entry) => {
      expect(() => SourceNetworks.parse([entry])).toThrow(entry);
    },
  );
});
