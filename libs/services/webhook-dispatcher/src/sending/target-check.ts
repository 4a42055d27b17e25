import { isIP } from 'node:net';
import { AddressPolicy, CheckedAddress } from './address-policy';

/** Host name resolution: every address of a name (`dns.lookup` with `{ all: true }` by default). */
export type ResolveHost = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

/** A URL that may be sent to, and the addresses its connection is pinned to (none for a literal). */
export interface CheckedTarget {
  url: URL;
  /** The name undici's connector passes to `lookup`: the URL's hostname. */
  hostname: string;
  /** The allowed addresses of a name; null when the host is a literal address (no lookup happens). */
  pinned: readonly CheckedAddress[] | null;
}

export type TargetCheck = { ok: true; target: CheckedTarget } | { ok: false; reason: string };

/**
 * The URL a webhook or a redirect's `Location` names, if it may be sent to at all: absolute `http`
 * or `https`, without credentials. `base` resolves a relative `Location` against the request's URL.
 */
export function parseTargetUrl(text: string, base?: URL): { url: URL } | { reason: string } {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    return { reason: 'not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { reason: `scheme ${url.protocol.slice(0, 40)} is not http or https` };
  }
  if (url.username !== '' || url.password !== '') return { reason: 'the URL carries credentials' };
  if (url.hostname === '') return { reason: 'the URL has no host' };
  return { url };
}

/** The URL as the delivery log may show it: without credentials or fragment. */
export function shownUrl(url: URL): string {
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  shown.hash = '';
  return shown.href;
}

/**
 * The address check of one URL's host. `new URL()` has already turned every IPv4 notation (decimal
 * `2130706433`, hex `0x7f000001` / `0x7f.0.0.1`, octal `0177.0.0.1`, short `127.1`) into a dotted
 * quad and an IPv6 literal into its bracketed compressed form, so `net.isIP` recognises every literal
 * here, exactly as `net.connect` will (it skips the lookup for the same strings). A literal is judged
 * as it is; a name is resolved once and only its allowed addresses are kept.
 */
export async function checkTarget(
  url: URL,
  policy: AddressPolicy,
  resolve: ResolveHost,
): Promise<TargetCheck> {
  const hostname = url.hostname;
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (isIP(literal) !== 0) {
    const verdict = policy.classify(literal);
    return verdict.allowed
      ? { ok: true, target: { url, hostname, pinned: null } }
      : { ok: false, reason: `address refused: ${verdict.reason}` };
  }
  const checked = await checkHostname(hostname, policy, resolve);
  return 'reason' in checked
    ? { ok: false, reason: checked.reason }
    : { ok: true, target: { url, hostname, pinned: checked.addresses } };
}

/**
 * Resolves a name and keeps the addresses the policy allows: when a name has both public and private
 * addresses, only the allowed ones are ever connected to. None left is a refusal.
 */
export async function checkHostname(
  hostname: string,
  policy: AddressPolicy,
  resolve: ResolveHost,
): Promise<{ addresses: CheckedAddress[] } | { reason: string }> {
  let answers: { address: string; family: 4 | 6 }[];
  try {
    answers = await resolve(hostname);
  } catch (error) {
    return { reason: `${hostname} did not resolve (${errorCode(error)})` };
  }
  if (answers.length === 0) return { reason: `${hostname} did not resolve (no address)` };
  const addresses: CheckedAddress[] = [];
  const refusals: string[] = [];
  for (const answer of answers) {
    const verdict = policy.classify(answer.address);
    if (!verdict.allowed) refusals.push(verdict.reason);
    else if (!addresses.some((known) => known.address === verdict.checked.address))
      addresses.push(verdict.checked);
  }
  if (addresses.length > 0) return { addresses };
  const more = refusals.length > 3 ? `, and ${refusals.length - 3} more` : '';
  return {
    reason: `${hostname} resolves only to refused addresses: ${refusals.slice(0, 3).join('; ')}${more}`,
  };
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'lookup failed';
}
