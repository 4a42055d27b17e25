import { Inject, Injectable } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';

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
 * Unknown-IMEI answers per source address (throttleKeyOf; docs/trackers.md, "Safety of the ports"): an address may
 * name `allowance` unknown devices a minute (a fleet behind one APN address with a few misconfigured
 * trackers stays under it); past that, every request and login from it is refused until its minute is
 * over, so that guessing IMEIs goes at a few a minute instead of hundreds a second. Counted per
 * replica, in memory: a restart forgets, and each replica allows its own share.
 */
@Injectable()
export class SourceThrottle {
  private readonly windows = new LRUCache<string, Window>({ max: TRACKED_ADDRESSES });
  private readonly allowance: number;
  /** Replaced in unit tests. */
  clock: () => number = Date.now;

  constructor(@Inject(TELEMETRY_INGEST_CONFIG) config: TelemetryIngestConfig) {
    this.allowance = config.unknownDevicesPerMinute;
  }

  /** Whether the address used up its allowance of unknown devices this minute. */
  blocked(address: string | undefined): boolean {
    const window = this.current(throttleKeyOf(address));
    return window !== undefined && window.failures >= this.allowance;
  }

  /** Seconds until a blocked address may try again (for Retry-After). */
  retryAfterSeconds(address: string | undefined): number {
    const window = this.current(throttleKeyOf(address));
    return window ? Math.max(1, Math.ceil((window.startedAt + 60_000 - this.clock()) / 1000)) : 0;
  }

  /** The address named an unknown device. */
  failed(address: string | undefined): void {
    const key = throttleKeyOf(address);
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
