import { createSecretKey } from 'node:crypto';
import { sign, verify } from 'jsonwebtoken';
import { Principal } from './principal';
import { VerifiedTokens } from './verified-tokens';

const secret = createSecretKey(Buffer.from('a test secret of some length, 32+'));
const principal = (): Principal => ({
  subject: 'apikey:7',
  companyId: 3,
  userId: 0,
  timeZone: 'UTC',
  vehicles: [5, 9],
  actions: ['vehicles:read'],
});
const tokenExpiringAt = (expSeconds: number) =>
  sign({ sub: 'apikey:7', exp: expSeconds }, secret, { algorithm: 'HS256' });

describe('VerifiedTokens', () => {
  it('knows a remembered token until the second of its exp claim, as jsonwebtoken judges expiry', () => {
    const exp = 1_900_000_000;
    const token = tokenExpiringAt(exp);
    const tokens = new VerifiedTokens();
    tokens.remember(token, principal());

    expect(tokens.get(token, exp * 1000 - 1)).toEqual(principal());
    // jsonwebtoken's own verdict at the same instants.
    expect(() => verify(token, secret, { clockTimestamp: exp - 1 })).not.toThrow();
    expect(() => verify(token, secret, { clockTimestamp: exp })).toThrow('jwt expired');
    expect(tokens.get(token, exp * 1000)).toBeUndefined();
    // An expired entry is dropped, not kept for later.
    expect(tokens.size).toBe(0);
  });

  it('finds only the very string that was remembered', () => {
    const token = tokenExpiringAt(1_900_000_000);
    const tokens = new VerifiedTokens();
    tokens.remember(token, principal());
    const [header, payload, signature] = token.split('.');
    const otherSignature = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;

    expect(tokens.get(`${header}.${payload}.${otherSignature}`, 0)).toBeUndefined();
    expect(tokens.get(`${token} `, 0)).toBeUndefined();
    expect(tokens.get(token, 0)).toBeDefined();
  });

  it('keeps the SHA-256 of a token, not the token itself', () => {
    const tokens = new VerifiedTokens();
    // A fixed string (a JWS with a fake signature) so that its digest can be written down.
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhcGlrZXk6NyIsImV4cCI6MTkwMDAwMDAwMH0.c2ln';
    tokens.remember(token, principal());

    // The cache is private; its keys are what a heap dump would show.
    const keys = [...tokens['entries'].keys()];
    expect(keys).toEqual(['tlhQnuXMQC7Ogiy5RJq02sas2FQw/WK9qXSrNt/pV54=']);
    expect(tokens.get(token, 0)).toEqual(principal());
  });

  it('does not keep a token without a numeric exp claim', () => {
    const tokens = new VerifiedTokens();
    const withoutExp = sign({ sub: 'apikey:7' }, secret, { algorithm: 'HS256', noTimestamp: true });
    // jsonwebtoken will not sign a text exp (and rejects one when verifying): written by hand.
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const textExp = `${part({ alg: 'HS256' })}.${part({ sub: 'apikey:7', exp: '1900000000' })}.c2ln`;
    tokens.remember(withoutExp, principal());
    tokens.remember(textExp, principal());
    tokens.remember('not.a-jwt', principal());

    expect(tokens.size).toBe(0);
    expect(tokens.get(withoutExp, 0)).toBeUndefined();
  });

  it('drops the least recently used token when full rather than growing', () => {
    const tokens = new VerifiedTokens(3);
    const [first, second, third, fourth] = [1, 2, 3, 4].map((i) => tokenExpiringAt(1_900_000_000 + i));
    tokens.remember(first, principal());
    tokens.remember(second, principal());
    tokens.remember(third, principal());
    // A request with the first token makes it the most recently used; the second is now the oldest.
    expect(tokens.get(first, 0)).toBeDefined();

    tokens.remember(fourth, principal());
    expect(tokens.size).toBe(3);
    expect(tokens.get(second, 0)).toBeUndefined();
    expect(tokens.get(first, 0)).toBeDefined();
    expect(tokens.get(third, 0)).toBeDefined();
    expect(tokens.get(fourth, 0)).toBeDefined();
  });

  it('hands out a principal no handler can change for the requests after it', () => {
    const tokens = new VerifiedTokens();
    const token = tokenExpiringAt(1_900_000_000);
    tokens.remember(token, principal());
    const known = tokens.get(token, 0)!;

    expect(() => known.vehicles!.push(11)).toThrow(TypeError);
    expect(() => {
      (known as { companyId: number }).companyId = 4;
    }).toThrow(TypeError);
    expect(tokens.get(token, 0)).toEqual(principal());
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new VerifiedTokens(0)).toThrow(RangeError);
    expect(() => new VerifiedTokens(1.5)).toThrow(RangeError);
  });
});
