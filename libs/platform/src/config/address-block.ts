import { isIP } from 'node:net';

/** An IP address or CIDR block as configured (`10.20.0.0/16`, `192.0.2.7`, `2001:db8::/32`). */
export interface AddressBlock {
  address: string;
  /** A lone address is its own block: /32 or /128. */
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** Reads one configured address or CIDR block; undefined when the entry is neither. */
export function parseAddressBlock(entry: string): AddressBlock | undefined {
  const [address, prefixText, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return undefined;
  const maxPrefix = family === 6 ? 128 : 32;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
  if (prefix > maxPrefix) return undefined;
  return { address, prefix, family: family === 6 ? 'ipv6' : 'ipv4' };
}
