import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { ApiException } from '@fleet/errors';
import {
  BackoffCounter,
  BackoffPolicy,
  BackoffTicket,
  FailureBackoff,
  SERVICE_CONFIG,
  ServiceConfig,
} from '@fleet/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AUTH_SERVICE_CONFIG, AuthServiceConfig, CredentialThrottleConfig } from './auth-service.config';

/**
 * The outcome of one attempt the throttle let through, to be reported once: the attempt was counted
 * as a failure when it was let through (so that simultaneous guesses cannot all pass the check), and
 * is taken back if it turns out not to be one.
 */
export interface ThrottledAttempt {
  /** The credentials were right. */
  accepted(): Promise<void>;
  /** The credentials were wrong: the failure stays counted. */
  rejected(): void;
  /** Neither is known (an unexpected error): taken back, as the caller is not to blame. */
  undecided(): Promise<void>;
}

const UNTHROTTLED: ThrottledAttempt = {
  accepted: () => Promise.resolve(),
  rejected: () => undefined,
  undecided: () => Promise.resolve(),
};

/**
 * The address counters are kept for: an IPv4 address as it is (an IPv4-mapped IPv6 one too), an
 * IPv6 address as its /64, since one subscriber usually holds a whole /64 and could otherwise change
 * address for every guess.
 */
export function addressGroup(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(ip)) return ip;
  const address = ip.split('%')[0];
  if (!isIPv6(address)) return ip === '' ? 'unknown' : ip;
  const [head, tail] = address.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  // A trailing dotted IPv4 part stands for two groups.
  const rightLength = right.length + (right.at(-1)?.includes('.') ? 1 : 0);
  const full =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - rightLength).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** Which counter of a password attempt is which (indexes into its counters). */
const PAIR = 0;
const COUNTER_NAMES = ['user name and address', 'address', 'user name'] as const;

/**
 * Throttles failed credential attempts at the token routes, before any password hash or API-key
 * lookup is computed, with exponential backoff per (user name, address), per address and per user
 * name, and per address for API keys (docs/auth.md, "Throttling failed credentials"). The per-user-
 * name counter holds back only addresses that have themselves failed for that name, so that failures
 * from one address never keep the right password out from another.
 *
 * Counters live in the FailureBackoff store (Redis in the distributed mode, shared by every replica;
 * memory in the embedded mode). Their keys carry neither user names nor addresses, only keyed hashes
 * of them. If the store fails, attempts pass unthrottled and an error is logged, as with rate limits.
 */
@Injectable()
export class CredentialThrottle {
  private readonly logger = new Logger(CredentialThrottle.name);
  private readonly config: CredentialThrottleConfig;
  private readonly hashKey: Buffer;

  constructor(
    private readonly backoff: FailureBackoff,
    @Inject(AUTH_SERVICE_CONFIG) authConfig: AuthServiceConfig,
    @Inject(SERVICE_CONFIG) serviceConfig: ServiceConfig,
  ) {
    this.config = authConfig.throttle;
    // Every replica holds the JWT secret; a key derived from it makes the hashes the same on all of
    // them and useless to whoever reads Redis without it (user names are easy to guess from a hash).
    this.hashKey = createHmac('sha256', serviceConfig.auth.jwtSecret)
      .update('fleet:credential-throttle:v1')
      .digest();
  }

  /** Before a user name and password are checked: throws 429 while this attempt must wait. */
  async passwordAttempt(userName: string, address: string): Promise<ThrottledAttempt> {
    if (!this.config.enabled) return UNTHROTTLED;
    const name = this.hash(`user\n${userName.toLowerCase()}`);
    const from = this.hash(`address\n${addressGroup(address)}`);
    const policy = (freeFailures: number): BackoffPolicy => this.policy(freeFailures);
    const counters: BackoffCounter[] = [
      { key: `login:pair:${this.hash(`${name}\n${from}`)}`, policy: policy(this.config.pairFreeFailures) },
      { key: `login:address:${from}`, policy: policy(this.config.addressFreeFailures) },
      {
        key: `login:user:${name}`,
        policy: policy(this.config.userFreeFailures),
        enforcedAfterFailureOf: PAIR,
      },
    ];
    return this.attempt('password', counters, [PAIR], address, name);
  }

  /** Before an API key is looked up: throws 429 while this address must wait. */
  async apiKeyAttempt(address: string): Promise<ThrottledAttempt> {
    if (!this.config.enabled) return UNTHROTTLED;
    const from = this.hash(`address\n${addressGroup(address)}`);
    const counters = [{ key: `apikey:address:${from}`, policy: this.policy(this.config.apiKeyFreeFailures) }];
    return this.attempt('api-key', counters, [], address);
  }

  private async attempt(
    kind: 'password' | 'api-key',
    counters: BackoffCounter[],
    clearOnSuccess: number[],
    address: string,
    userHash?: string,
  ): Promise<ThrottledAttempt> {
    let decision;
    try {
      decision = await this.backoff.attempt(counters);
    } catch (error) {
      this.logger.error({ msg: 'credential throttle store unavailable; attempt not throttled', err: error });
      return UNTHROTTLED;
    }
    if (!decision.allowed) {
      const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1_000));
      throw ApiException.rateLimited(`Too many failed attempts: retry after ${seconds} seconds.`, {
        'Retry-After': String(seconds),
      });
    }
    const { ticket } = decision;
    const takeBack = async (clear: number[]) => {
      try {
        await this.backoff.succeeded(ticket, clear);
      } catch (error) {
        this.logger.error({
          msg: 'credential throttle store unavailable; attempt not taken back',
          err: error,
        });
      }
    };
    return {
      accepted: () => takeBack(clearOnSuccess),
      undecided: () => takeBack([]),
      rejected: () => this.logWaits(kind, ticket, address, userHash),
    };
  }

  /** One line per failure that starts or lengthens a wait: no secret, no user name (its hash only). */
  private logWaits(kind: string, ticket: BackoffTicket, address: string, userHash: string | undefined): void {
    ticket.counters.forEach((_counter, index) => {
      const until = ticket.blockedUntilAfter[index];
      if (until <= ticket.nowMs || until === ticket.blockedUntilBefore[index]) return;
      this.logger.warn({
        msg: 'failed credentials: attempts backed off',
        kind,
        counter: kind === 'password' ? COUNTER_NAMES[index] : 'address',
        address: addressGroup(address),
        ...(userHash && index !== 1 ? { userNameHash: userHash.slice(0, 12) } : {}),
        waitSeconds: Math.ceil((until - ticket.nowMs) / 1_000),
      });
    });
  }

  private policy(freeFailures: number): BackoffPolicy {
    const { baseDelayMs, maxDelayMs, forgetAfterMs } = this.config;
    return { freeFailures, baseDelayMs, maxDelayMs, forgetAfterMs };
  }

  /** 128 bits of an HMAC: enough to tell counters apart, nothing to read a user name from. */
  private hash(value: string): string {
    return createHmac('sha256', this.hashKey).update(value, 'utf8').digest('base64url').slice(0, 22);
  }
}
