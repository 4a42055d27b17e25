import { throttleKeyOf } from '../device-ports/source-throttle';
import { MAX_JSON_NESTING, nestedDeeperThan } from './device-listener';

describe('throttleKeyOf', () => {
  it('counts an IPv4 address as itself, in either form', () => {
    expect(throttleKeyOf('203.0.113.9')).toBe('203.0.113.9');
    expect(throttleKeyOf('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(throttleKeyOf('::FFFF:203.0.113.9')).toBe('203.0.113.9');
  });

  it('counts IPv6 addresses by their /64, however they are written', () => {
    const key = '2001:db8:85a3:12::/64';
    expect(throttleKeyOf('2001:db8:85a3:12::1')).toBe(key);
    expect(throttleKeyOf('2001:0db8:85a3:0012:ffff:ffff:ffff:fffe')).toBe(key);
    expect(throttleKeyOf('2001:DB8:85A3:12:0:0:0:2')).toBe(key);
    expect(throttleKeyOf('2001:db8:85a3:12::1%eth0')).toBe(key);
    expect(throttleKeyOf('2001:db8:85a3:13::1')).not.toBe(key);
  });

  it('expands the compressed forms at either end', () => {
    expect(throttleKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(throttleKeyOf('fe80::')).toBe('fe80:0:0:0::/64');
    expect(throttleKeyOf('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('keeps anything else as it is', () => {
    expect(throttleKeyOf(undefined)).toBe('');
    expect(throttleKeyOf('not an address')).toBe('not an address');
  });
});

describe('nestedDeeperThan', () => {
  const nested = (depth: number) => {
    let value: unknown = 1;
    for (let level = 0; level < depth; level += 1) value = level % 2 ? [value] : { a: value };
    return value;
  };

  it('lets a real report through, and scalars', () => {
    const report = { device_id: '1', location: { coords: { latitude: 1 }, extras: { fuel: [1] } } };
    expect(nestedDeeperThan(report, MAX_JSON_NESTING)).toBe(false);
    expect(nestedDeeperThan('text', 0)).toBe(false);
    expect(nestedDeeperThan(null, 0)).toBe(false);
  });

  it('counts arrays and objects alike, up to the limit and not one more', () => {
    expect(nestedDeeperThan(nested(16), 16)).toBe(false);
    expect(nestedDeeperThan(nested(17), 16)).toBe(true);
  });

  it('walks any depth without overflowing the stack', () => {
    expect(nestedDeeperThan(nested(200_000), MAX_JSON_NESTING)).toBe(true);
  });
});
