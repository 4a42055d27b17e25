import { BlockList, isIP } from 'node:net';
import { parseAddressBlock } from '@fleet/platform';

/**
 * The source networks trackers may report from (INGEST_DEVICE_ALLOWED_NETWORKS): addresses and CIDR
 * blocks, IPv4 or IPv6. Node's own `BlockList` does the matching (an IPv4 rule also matches its
 * IPv4-mapped IPv6 form). An empty list admits every address.
 */
export class SourceNetworks {
  private constructor(
    private readonly list: BlockList | undefined,
    readonly entries: readonly string[],
  ) {}

  /** Parses the entries; throws naming the first one that is not an address or a CIDR block. */
  static parse(entries: readonly string[]): SourceNetworks {
    if (entries.length === 0) return new SourceNetworks(undefined, entries);
    const list = new BlockList();
    for (const entry of entries) {
      const block = parseAddressBlock(entry);
      if (!block) throw new Error(`"${entry}" is not an IP address or CIDR block (e.g. 10.20.0.0/16)`);
      list.addSubnet(block.address, block.prefix, block.family);
    }
    return new SourceNetworks(list, entries);
  }

  /** Whether a report from `address` (as the socket saw it) is admitted. */
  admits(address: string | undefined): boolean {
    if (!this.list) return true;
    if (!address) return false;
    const family = isIP(address);
    return family !== 0 && this.list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }
}
