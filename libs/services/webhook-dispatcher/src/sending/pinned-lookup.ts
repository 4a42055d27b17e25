import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { CheckedAddress } from './address-policy';

/** Checks a host name now (resolve, then keep only allowed addresses), for a connection nobody pinned. */
export type CheckNow = (hostname: string) => Promise<{ addresses: CheckedAddress[] } | { reason: string }>;

/** The error a connection attempt fails with when the lookup has no allowed address to give. */
export class RefusedAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_ADDRESS_REFUSED';
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RefusedAddressError';
  }
}

/**
 * The addresses a request was checked against, handed to the connection it makes: the `lookup`
 * undici's connector passes to `net.connect` / `tls.connect`, so the socket goes to an address the
 * sender just checked and the name is not resolved a second time (DNS rebinding gets no second
 * answer to give). The host NAME stays the request's host, so TLS still sends it as SNI and verifies
 * the certificate against it.
 *
 * An entry lives while at least one request to that name is in flight (`pin` returns its release);
 * concurrent requests to one name each put their own check in, the newest is used, and every one of
 * them was checked. A connection opened when no entry exists (not expected: undici connects only for
 * a request in flight) resolves and checks the name itself, so no path connects unchecked.
 *
 * Literal addresses never come here: `net.connect` skips `lookup` for them, which is why the sender
 * classifies them before sending.
 */
export class PinnedLookup {
  private readonly pins = new Map<string, { addresses: readonly CheckedAddress[]; users: number }>();

  constructor(private readonly checkNow: CheckNow) {}

  /** Makes `addresses` the answer for `hostname` until the returned release is called. */
  pin(hostname: string, addresses: readonly CheckedAddress[]): () => void {
    const entry = this.pins.get(hostname);
    if (entry) {
      entry.addresses = addresses;
      entry.users += 1;
    } else {
      this.pins.set(hostname, { addresses, users: 1 });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const current = this.pins.get(hostname);
      if (current && --current.users === 0) this.pins.delete(hostname);
    };
  }

  /** How many names are pinned now (tests: every request releases its pin). */
  get size(): number {
    return this.pins.size;
  }

  /**
   * `net.connect`'s `lookup`. Node's family auto-selection (on by default since Node 20) asks with
   * `{ all: true }` and wants a list; without it, one address and its family are expected. Both are
   * answered, filtered by `options.family` when one is asked for.
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    const answer = (addresses: readonly CheckedAddress[]): void => {
      const family = familyOf(options);
      const usable = family ? addresses.filter((entry) => entry.family === family) : addresses;
      if (usable.length === 0) {
        callback(new RefusedAddressError(`${hostname} has no allowed IPv${family ?? ''} address`), '', 0);
      } else if (options.all) {
        callback(
          null,
          usable.map((entry): LookupAddress => ({ address: entry.address, family: entry.family })),
        );
      } else {
        callback(null, usable[0].address, usable[0].family);
      }
    };
    const pinned = this.pins.get(hostname);
    if (pinned) {
      answer(pinned.addresses);
      return;
    }
    this.checkNow(hostname).then(
      (result) =>
        'reason' in result
          ? callback(new RefusedAddressError(result.reason), '', 0)
          : answer(result.addresses),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), '', 0),
    );
  };
}

function familyOf(options: LookupOptions): 4 | 6 | undefined {
  const family: unknown = options.family;
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return undefined;
}
