import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: 43 characters, as the public interface describes company keys. */
export function generateApiKey(): string {
  return randomBytes(32).toString('base64url');
}

export function isWellFormedApiKey(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** What is stored instead of the key. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
