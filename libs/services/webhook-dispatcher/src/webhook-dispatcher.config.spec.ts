import { ConfigError, EnvReader } from '@fleet/platform';
import { readWebhookDispatcherConfig } from './webhook-dispatcher.config';

function read(env: Record<string, string>) {
  const reader = new EnvReader(env);
  const config = readWebhookDispatcherConfig(reader);
  reader.assertValid();
  return config;
}

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    read(env);
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
};

describe('webhook-dispatcher settings', () => {
  const key = 'ab'.repeat(32);

  it('reads the secret key from 64 hex digits or base64, and the defaults', () => {
    expect(read({ WEBHOOK_SECRET_KEY: key })).toEqual({
      secretKey: Buffer.from(key, 'hex'),
      allowPrivateCidrs: [],
      logRetentionDays: 30,
      maxConcurrency: 256,
      maxPerEndpoint: 32,
    });
    const base64 = Buffer.alloc(32, 7).toString('base64');
    expect(read({ WEBHOOK_SECRET_KEY: base64 }).secretKey).toEqual(Buffer.alloc(32, 7));
  });

  it('names a missing key, a key of the wrong size and a malformed CIDR, without echoing the key', () => {
    expect(problemsOf({})).toEqual([expect.stringContaining('WEBHOOK_SECRET_KEY is required')]);
    const short = Buffer.alloc(24, 1).toString('base64');
    const problems = problemsOf({
      WEBHOOK_SECRET_KEY: short,
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.1/32,10/8',
    });
    expect(problems).toEqual([
      expect.stringContaining('WEBHOOK_SECRET_KEY must be 32 bytes'),
      expect.stringContaining('"10/8" is not a CIDR'),
    ]);
    expect(problems.join(' ')).not.toContain(short);
  });
});
