import { Inject, Injectable } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig, ThrottledProtocol } from '../telemetry-ingest.config';

/** Source addresses tracked at once; beyond it the least recent is forgotten. */
const TRACKED_ADDRESSES = 100_000;

/**
 * What the throttle counts a source address as: an IPv4 address (also in its IPv4-mapped IPv6 form) as
 * itself, an IPv6 address by its /64 network, since one subscriber (a mobile device's PDN connection, a
 * home line) is given a whole /64 and could otherwise guess from a new address each time.
 */
export function throttleKeyOf(address: string | undefined): string {
  if (address === undefined) return '';
  const bare = address.split('%', 1)[0];
  if (!ipaddr.isValid(bare)) return address;
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Unknown identifiers per protocol and source address (throttleKeyOf; docs/device-settings.md, "Guessing
 * IMEIs"): an address may name `allowance` unknown devices a minute on a protocol; past that, the
 * unknown identifiers it names on that protocol are refused unanswered until its minute is over, so
 * that guessing goes at a few a minute instead of hundreds a second. A known device is never refused
 * here: trackers reach the platform through carriers' NAT, thousands behind one address, and one
 * misconfigured tracker (or one attacker behind the same carrier) must not silence the others. Counted
 * per replica, in memory: a restart forgets, and each replica allows its own share.
 */
@Injectable()
export class SourceThrottle {
  private readonly windows = new LRUCache<string, Window>({ max: TRACKED_ADDRESSES });
  private readonly allowances: Record<ThrottledProtocol, number>;
  /** Replaced in unit tests. */
  clock: () => number = Date.now;

  constructor(@Inject(TELEMETRY_INGEST_CONFIG) config: TelemetryIngestConfig) {
    this.allowances = config.unknownDevicesPerMinute;
  }

  /** Whether the address used up its allowance of unknown devices on the protocol this minute. */
  blocked(protocol: ThrottledProtocol, address: string | undefined): boolean {
    const window = this.current(keyOf(protocol, address));
    return window !== undefined && window.failures >= this.allowances[protocol];
  }

  /** Seconds until a blocked address may name unknown devices again (for Retry-After). */
  retryAfterSeconds(protocol: ThrottledProtocol, address: string | undefined): number {
    const window = this.current(keyOf(protocol, address));
    return window ? Math.max(1, Math.ceil((window.startedAt + 60_000 - this.clock()) / 1000)) : 0;
  }

  /** The address named an unknown device on the protocol. */
  failed(protocol: ThrottledProtocol, address: string | undefined): void {
    const key = keyOf(protocol, address);
    const window = this.current(key);
    if (window) window.failures++;
    else this.windows.set(key, { startedAt: this.clock(), failures: 1 });
  }

  private current(key: string): Window | undefined {
    const window = this.windows.get(key);
    if (window && this.clock() - window.startedAt >= 60_000) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }
}

const keyOf = (protocol: ThrottledProtocol, address: string | undefined) =>
  `${protocol} ${throttleKeyOf(address)}`;
