import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';

/** Source addresses tracked at once; beyond it the least recent is forgotten. */
const TRACKED_ADDRESSES = 100_000;

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Unknown-IMEI answers per source address (docs/trackers.md, "Safety of the ports"): an address may
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
  blocked(address: string): boolean {
    const window = this.current(address);
    return window !== undefined && window.failures >= this.allowance;
  }

  /** Seconds until a blocked address may try again (for Retry-After). */
  retryAfterSeconds(address: string): number {
    const window = this.current(address);
    return window ? Math.max(1, Math.ceil((window.startedAt + 60_000 - this.clock()) / 1000)) : 0;
  }

  /** The address named an unknown device. */
  failed(address: string): void {
    const window = this.current(address);
    if (window) window.failures++;
    else this.windows.set(address, { startedAt: this.clock(), failures: 1 });
  }

  private current(address: string): Window | undefined {
    const window = this.windows.get(address);
    if (window && this.clock() - window.startedAt >= 60_000) {
      this.windows.delete(address);
      return undefined;
    }
    return window;
  }
}
