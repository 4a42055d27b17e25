import { FailureBackoff, MemoryFailureBackoff, ServiceConfig } from '@fleet/platform';
import { Logger } from '@nestjs/common';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { CompaniesService } from '../companies/companies.service';
import { UsersService } from '../users/users.service';
import { AuthServiceConfig, CredentialThrottleConfig } from './auth-service.config';
import { addressGroup, CredentialThrottle } from './credential-throttle';
import { TokenService } from './token.service';

const START_MS = Date.UTC(2026, 4, 1);
const A = '203.0.113.7';
const B = '198.51.100.20';
const GOOD_KEY = 'k'.repeat(43);

const THROTTLE: CredentialThrottleConfig = {
  enabled: true,
  pairFreeFailures: 5,
  userFreeFailures: 10,
  addressFreeFailures: 20,
  apiKeyFreeFailures: 20,
  baseDelayMs: 1_000,
  maxDelayMs: 900_000,
  forgetAfterMs: 900_000,
};

/**
 * The token service with the real throttle on the memory store and a clock the test moves; users and
 * keys are fakes that count how often a password hash (or a key lookup) would have been computed.
 */
function setup(throttle: Partial<CredentialThrottleConfig> = {}, backoffOverride?: FailureBackoff) {
  const clock = { nowMs: START_MS };
  const backoff = backoffOverride ?? new MemoryFailureBackoff({ clock: () => clock.nowMs });
  const serviceConfig = { auth: { jwtSecret: 'a-test-secret-of-at-least-32-characters!' } } as ServiceConfig;
  const config: AuthServiceConfig = { tokenLifetimeSeconds: 3_600, throttle: { ...THROTTLE, ...throttle } };
  const passwordChecks = jest.fn();
  const keyLookups = jest.fn();
  const users = {
    authenticate: async (userName: string, password: string) => {
      passwordChecks(userName);
      return userName.toLowerCase() === 'alice' && password === 'right'
        ? { userId: 1, companyId: 1 }
        : undefined;
    },
  } as unknown as UsersService;
  const apiKeys = {
    findActive: async (key: string) => {
      keyLookups(key);
      return key === GOOD_KEY ? { id: 1, companyId: 1, vehicleIds: null, actions: null } : null;
    },
  } as unknown as ApiKeysService;
  const companies = {
    findById: async (id: number) => ({ id, timeZone: 'UTC', dateTimeFormat: 'dd/MM/yyyy HH:mm:ss' }),
    blockingAncestor: async () => undefined,
  } as unknown as CompaniesService;
  const credentialThrottle = new CredentialThrottle(backoff, config, serviceConfig);
  const tokens = new TokenService(apiKeys, users, companies, credentialThrottle, serviceConfig, config);
  return {
    tokens,
    passwordChecks,
    keyLookups,
    advance: (ms: number) => void (clock.nowMs += ms),
    /** The status a login answers: 200, 401 or 429 (with its Retry-After). */
    login: (userName: string, password: string, address: string) =>
      outcome(tokens.forUser(userName, password, address)),
    exchange: (key: string, address: string) => outcome(tokens.forApiKey(key, address)),
  };
}

async function outcome(call: Promise<unknown>): Promise<{ status: number; retryAfter?: string }> {
  try {
    await call;
    return { status: 200 };
  } catch (error) {
    const { status, headers } = error as { status: number; headers: Record<string, string> };
    return headers['Retry-After'] ? { status, retryAfter: headers['Retry-After'] } : { status };
  }
}

async function repeat<T>(times: number, call: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < times; i++) results.push(await call());
  return results;
}

describe('CredentialThrottle at the token service', () => {
  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });

  afterEach(() => jest.restoreAllMocks());

  it('answers wrong passwords from one address with 429 and Retry-After, without checking them', async () => {
    const { login, passwordChecks, advance } = setup();
    // Five free failures, then the sixth starts a wait of 1 s.
    expect(await repeat(6, () => login('alice', 'guess', A))).toEqual(Array(6).fill({ status: 401 }));
    expect(await repeat(20, () => login('alice', 'guess', A))).toEqual(
      Array(20).fill({ status: 429, retryAfter: '1' }),
    );
    expect(passwordChecks).toHaveBeenCalledTimes(6);

    // Each wait heard ends with one more check, and the next wait is twice as long.
    for (const wait of [2, 4, 8, 16]) {
      advance((wait / 2) * 1_000);
      expect(await login('alice', 'guess', A)).toEqual({ status: 401 });
      expect(await login('alice', 'guess', A)).toEqual({ status: 429, retryAfter: String(wait) });
    }
    expect(passwordChecks).toHaveBeenCalledTimes(10);
  });

  it('caps the wait, and forgets the failures once the wait and the forget period have passed', async () => {
    const { login, advance } = setup({ maxDelayMs: 4_000 });
    await repeat(6, () => login('alice', 'guess', A));
    for (const wait of [1, 2, 4, 4, 4]) {
      expect(await login('alice', 'guess', A)).toEqual({ status: 429, retryAfter: String(wait) });
      advance(wait * 1_000);
      expect(await login('alice', 'guess', A)).toEqual({ status: 401 });
    }
    advance(4_000 + 900_000);
    expect(await repeat(6, () => login('alice', 'guess', A))).toEqual(Array(6).fill({ status: 401 }));
    expect(await login('alice', 'guess', A)).toEqual({ status: 429, retryAfter: '1' });
  });

  it('never keeps the right password out from another address, however many failures came from one', async () => {
    const { login, advance } = setup();
    for (let i = 0; i < 200; i++) {
      await login('alice', 'guess', A);
      advance(500);
    }
    expect(await login('alice', 'right', A)).toMatchObject({ status: 429 });
    expect(await login('alice', 'right', B)).toEqual({ status: 200 });
    expect(await login('ALICE', 'right', `::ffff:${B}`)).toEqual({ status: 200 });
  });

  it('holds an address back for a user name only once that address has failed for it', async () => {
    const { login, passwordChecks } = setup();
    // Eleven addresses fail once each for alice: the user name's counter is past its ten free failures.
    const addresses = Array.from({ length: 11 }, (_, i) => `192.0.2.${i + 1}`);
    for (const address of addresses) expect(await login('alice', 'guess', address)).toEqual({ status: 401 });
    // Each of them has failed for alice: its next attempt waits on the user name's counter.
    for (const address of addresses) {
      expect(await login('alice', 'guess', address)).toMatchObject({ status: 429, retryAfter: '1' });
    }
    expect(passwordChecks).toHaveBeenCalledTimes(11);
    // An address that has not failed for alice is heard, and the right password is let in.
    expect(await login('alice', 'right', B)).toEqual({ status: 200 });
    // Other user names from those addresses are not held back by alice's counter.
    expect(await login('bob', 'guess', addresses[0])).toEqual({ status: 401 });
  });

  it('clears the counter of user name and address on the right password, not that of the address', async () => {
    const { login } = setup({ addressFreeFailures: 8 });
    await repeat(5, () => login('alice', 'guess', A));
    expect(await login('alice', 'right', A)).toEqual({ status: 200 });
    // The pair starts afresh; the address holds its five failures, and has three more free.
    expect(await repeat(3, () => login('alice', 'guess', A))).toEqual(Array(3).fill({ status: 401 }));
    expect(await login('alice', 'guess', A)).toEqual({ status: 401 });
    expect(await login('alice', 'right', A)).toMatchObject({ status: 429, retryAfter: '1' });
  });

  it('backs off an address that tries many user names, for every user name, and only that address', async () => {
    const { login, passwordChecks } = setup();
    for (let i = 0; i < 21; i++) expect(await login(`user${i}`, 'guess', A)).toEqual({ status: 401 });
    expect(await login('someone-else', 'guess', A)).toEqual({ status: 429, retryAfter: '1' });
    expect(await login('alice', 'right', A)).toMatchObject({ status: 429 });
    expect(passwordChecks).toHaveBeenCalledTimes(21);
    expect(await login('alice', 'right', B)).toEqual({ status: 200 });
  });

  it('counts simultaneous guesses exactly: 100 at once reach the password check 6 times', async () => {
    const { tokens, passwordChecks } = setup();
    const results = await Promise.all(
      Array.from({ length: 100 }, () => outcome(tokens.forUser('alice', 'guess', A))),
    );
    expect(passwordChecks).toHaveBeenCalledTimes(6);
    expect(results.filter((r) => r.status === 429)).toHaveLength(94);
  });

  it('treats an IPv6 /64 as one address', async () => {
    const { login } = setup();
    for (let i = 1; i <= 6; i++) await login('alice', 'guess', `2001:db8:1:2::${i.toString(16)}`);
    expect(await login('alice', 'guess', '2001:db8:1:2:ffff:ffff:ffff:ffff')).toMatchObject({ status: 429 });
    expect(await login('alice', 'right', '2001:db8:1:3::1')).toEqual({ status: 200 });
  });

  it('backs off failed API keys per address, before looking them up, and never another address', async () => {
    const { exchange, keyLookups, advance } = setup();
    expect(await repeat(21, () => exchange('x'.repeat(43), A))).toEqual(Array(21).fill({ status: 401 }));
    expect(await exchange('x'.repeat(43), A)).toEqual({ status: 429, retryAfter: '1' });
    expect(await exchange(GOOD_KEY, A)).toEqual({ status: 429, retryAfter: '1' });
    expect(keyLookups).toHaveBeenCalledTimes(21);
    expect(await exchange(GOOD_KEY, B)).toEqual({ status: 200 });
    advance(1_000);
    expect(await exchange(GOOD_KEY, A)).toEqual({ status: 200 });
    // The success took itself back: the next failure is the 22nd, which waits 2 s.
    expect(await exchange('x'.repeat(43), A)).toEqual({ status: 401 });
    expect(await exchange('x'.repeat(43), A)).toEqual({ status: 429, retryAfter: '2' });
  });

  it('keeps user names and addresses out of the counter keys', async () => {
    const backoff = new MemoryFailureBackoff();
    const attempt = jest.spyOn(backoff, 'attempt');
    const { login, exchange } = setup({}, backoff);
    await login('alice', 'guess', A);
    await exchange('x'.repeat(43), A);
    const keys = attempt.mock.calls.flatMap(([counters]) => counters.map((counter) => counter.key));
    expect(keys).toHaveLength(4);
    for (const key of keys) expect(key).toMatch(/^(login:(pair|user|address)|apikey:address):[\w-]{22}$/);
  });

  it('lets attempts through, unthrottled, when the counter store fails, and says so', async () => {
    const broken = new MemoryFailureBackoff();
    jest.spyOn(broken, 'attempt').mockRejectedValue(new Error('Redis is away'));
    const { login, passwordChecks } = setup({ pairFreeFailures: 0 }, broken);
    expect(await repeat(3, () => login('alice', 'guess', A))).toEqual(Array(3).fill({ status: 401 }));
    expect(passwordChecks).toHaveBeenCalledTimes(3);
    expect(Logger.prototype.error).toHaveBeenCalledTimes(3);
  });

  it('logs the failure that starts a wait, with the address and no user name or password', async () => {
    const { login } = setup();
    await repeat(6, () => login('alice', 'secret-guess', A));
    const lines = jest
      .mocked(Logger.prototype.warn)
      .mock.calls.map(([line]) => line as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({ counter: 'user name and address', address: A, waitSeconds: 1 }),
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/alice|secret-guess/);
  });

  it('does nothing when turned off', async () => {
    const { login, passwordChecks } = setup({ enabled: false });
    await repeat(30, () => login('alice', 'guess', A));
    expect(passwordChecks).toHaveBeenCalledTimes(30);
  });
});

describe('addressGroup', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::203.0.113.7', '64:ff9b:0:0::/64'],
    ['', 'unknown'],
  ])('%s is counted as %s', (ip, group) => {
    expect(addressGroup(ip)).toBe(group);
  });
});
