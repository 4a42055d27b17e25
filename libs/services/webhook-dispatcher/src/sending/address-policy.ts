import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/** An address a delivery may connect to, in the form `net.connect` takes. */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** What the policy says about one address. */
export type AddressVerdict = { allowed: true; checked: CheckedAddress } | { allowed: false; reason: string };

type Cidr<T extends ipaddr.IPv4 | ipaddr.IPv6> = [T, number];

/**
 * Prefixes refused outright, even inside an allow-list entry: each embeds an IPv4 address that a
 * translator or tunnel on the path turns back into IPv4, so that `[64:ff9b::7f00:1]` or
 * `[2002:7f00:1::]` could reach 127.0.0.1 behind the operator's back. An operator who wants a private
 * IPv4 range allows the IPv4 range itself.
 * - `64:ff9b::/96`: the well-known NAT64 prefix (RFC 6052). ipaddr.js names it `rfc6052` (with the
 *   local-use `64:ff9b:1::/48`, which is refused too, as not unicast, but may be allow-listed).
 * - `2002::/16`: 6to4 (RFC 3056), ipaddr.js `6to4`.
 * - `::/96`: IPv4-compatible addresses (`::127.0.0.1`, deprecated by RFC 4291). ipaddr.js calls
 *   them `unicast`, so they are refused by prefix; `::` and `::1` in it keep their own ranges.
 */
const refusedPrefixes: { cidr: Cidr<ipaddr.IPv6>; name: string }[] = [
  { cidr: ipaddr.IPv6.parseCIDR('64:ff9b::/96'), name: 'in the NAT64 prefix 64:ff9b::/96' },
  { cidr: ipaddr.IPv6.parseCIDR('2002::/16'), name: 'in the 6to4 prefix 2002::/16' },
  { cidr: ipaddr.IPv6.parseCIDR('::/96'), name: 'an IPv4-compatible address (::/96)' },
];

/**
 * ipaddr.js range names that no allow-list entry opens: none of them is one host a TCP connection
 * can reach. `unspecified` (0.0.0.0/8, `::`) is worse than meaningless: Linux connects 0.0.0.0 and
 * `::` to the local host, so allowing it would make `10.0.0.0/8`-style entries reach loopback.
 */
const neverAllowed = new Set(['unspecified', 'broadcast', 'multicast']);

/**
 * Words for the delivery log, per ipaddr.js 2.5.0 range name. Every name but `unicast` is refused
 * unless an allow-list entry covers the address; the ones not listed here (a later ipaddr.js may add
 * some) are refused the same way and named as ipaddr.js names them.
 * - IPv4: unspecified, broadcast, multicast, linkLocal (169.254/16, cloud metadata), loopback,
 *   carrierGradeNat (100.64/10), private (RFC 1918), reserved (192.0.0/24, documentation 192.0.2/24,
 *   198.51.100/24, 203.0.113/24, 6to4 relay 192.88.99/24, benchmarking 198.18/15, 240/4),
 *   as112, amt.
 * - IPv6: unspecified, linkLocal, multicast, loopback, uniqueLocal (fc00::/7), ipv4Mapped (never
 *   seen here: mapped addresses are unwrapped to IPv4 first), deprecatedSiteLocal, discard,
 *   rfc6145 (IPv4-translated `::ffff:0:a.b.c.d`), rfc6052 (NAT64), 6to4, teredo (2001::/32, an
 *   obfuscated IPv4 inside), benchmarking, amt, as112v6, deprecatedOrchid, orchid2,
 *   droneRemoteIdProtocolEntityTags, segmentRouting, reserved (documentation 2001:db8::/32 and
 *   3fff::/20, 2001::/23).
 */
const rangeWords: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT (100.64.0.0/10)',
  private: 'private (RFC 1918)',
  reserved: 'reserved (documentation, benchmarking or future use)',
  uniqueLocal: 'unique local (fc00::/7)',
  deprecatedSiteLocal: 'site-local (fec0::/10)',
  rfc6145: 'IPv4-translated (::ffff:0:0:0/96)',
  rfc6052: 'NAT64 (RFC 6052)',
  '6to4': '6to4 (2002::/16)',
  teredo: 'Teredo (2001::/32)',
};

/** Thrown by `parseAllowedCidr` (and so by the policy's constructor) for an entry it cannot read. */
export class InvalidCidrError extends Error {
  constructor(entry: string) {
    super(
      `WEBHOOK_ALLOW_PRIVATE_CIDRS: "${entry}" is not a CIDR ` +
        '(an address in its usual notation and a prefix length, such as 127.0.0.1/32 or fd00::/8)',
    );
    this.name = 'InvalidCidrError';
  }
}

/**
 * One allow-list entry. The address must be in its usual notation (`net.isIP`): ipaddr.js alone
 * would read `10/8` as 0.0.0.10/8 and `192.168/16` as 192.0.0.168/16, ranges nobody meant. An
 * IPv4-mapped IPv6 entry (`::ffff:127.0.0.1/128`) is turned into its IPv4 range, since addresses are
 * compared after unwrapping.
 */
export function parseAllowedCidr(entry: string): Cidr<ipaddr.IPv4> | Cidr<ipaddr.IPv6> {
  const text = entry.trim();
  const slash = text.indexOf('/');
  if (slash < 0 || isIP(text.slice(0, slash)) === 0) throw new InvalidCidrError(entry);
  let cidr: [ipaddr.IPv4 | ipaddr.IPv6, number];
  try {
    cidr = ipaddr.parseCIDR(text);
  } catch {
    throw new InvalidCidrError(entry);
  }
  const [address, bits] = cidr;
  if (address instanceof ipaddr.IPv4) return [address, bits];
  if (address.isIPv4MappedAddress() && bits >= 96) return [address.toIPv4Address(), bits - 96];
  return [address, bits];
}

/**
 * Which addresses a webhook delivery may connect to (docs/webhooks.md, "Which addresses a webhook
 * may reach"): public unicast ones as ipaddr.js classifies them, plus those inside an operator's
 * allow-list entry. Pure: no lookups, no I/O.
 */
export class AddressPolicy {
  private readonly allowedV4: Cidr<ipaddr.IPv4>[] = [];
  private readonly allowedV6: Cidr<ipaddr.IPv6>[] = [];

  /** @throws InvalidCidrError for an entry that is not a CIDR. */
  constructor(allowPrivateCidrs: readonly string[]) {
    for (const entry of allowPrivateCidrs) {
      const cidr = parseAllowedCidr(entry);
      if (cidr[0] instanceof ipaddr.IPv4) this.allowedV4.push(cidr as Cidr<ipaddr.IPv4>);
      else this.allowedV6.push(cidr as Cidr<ipaddr.IPv6>);
    }
  }

  /**
   * The verdict on one address in its usual notation (as `net.isIP` accepts it: what a resolver
   * answers and what `new URL()` leaves of a literal host). IPv4-mapped IPv6 addresses are judged,
   * and connected to, as the IPv4 address they carry.
   */
  classify(text: string): AddressVerdict {
    const family = isIP(text);
    if (family === 0) return { allowed: false, reason: `"${text}" is not an IP address` };
    let address = ipaddr.parse(text);
    if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress()) address = address.toIPv4Address();
    const shown = address.toString();
    const range = address.range();
    if (neverAllowed.has(range)) return { allowed: false, reason: `${shown} is ${rangeWords[range]}` };
    if (address instanceof ipaddr.IPv6) {
      // `::1` lies in ::/96 but is loopback, which an allow-list entry may open.
      const embedded = refusedPrefixes.find(({ cidr }) => address.match(cidr));
      if (embedded && range !== 'loopback') return { allowed: false, reason: `${shown} is ${embedded.name}` };
    }
    const checked: CheckedAddress = { address: shown, family: address.kind() === 'ipv4' ? 4 : 6 };
    if (range === 'unicast' || this.isAllowListed(address)) return { allowed: true, checked };
    return {
      allowed: false,
      reason: `${shown} is ${rangeWords[range] ?? `in the range ipaddr.js calls ${range}`}`,
    };
  }

  private isAllowListed(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    return address instanceof ipaddr.IPv4
      ? this.allowedV4.some((cidr) => address.match(cidr))
      : this.allowedV6.some((cidr) => address.match(cidr));
  }
}
