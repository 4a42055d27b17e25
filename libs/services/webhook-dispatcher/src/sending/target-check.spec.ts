import { AddressPolicy } from './address-policy';
import { checkTarget, parseTargetUrl, ResolveHost, shownUrl } from './target-check';

const policy = new AddressPolicy([]);

/** A resolver that records names and must not be called for literal addresses. */
function resolverOf(answers: Record<string, { address: string; family: 4 | 6 }[] | Error>) {
  const asked: string[] = [];
  const resolve: ResolveHost = (hostname) => {
    asked.push(hostname);
    const answer = answers[hostname];
    if (answer === undefined)
      return Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  return { resolve, asked };
}

async function check(text: string, resolve: ResolveHost) {
  const parsed = parseTargetUrl(text);
  if ('reason' in parsed) throw new Error(`${text}: ${parsed.reason}`);
  return checkTarget(parsed.url, policy, resolve);
}

describe('checkTarget', () => {
  /** Every literal notation the issue lists: new URL() normalises it, and it is judged with no lookup. */
  it.each([
    ['http://2130706433/', '127.0.0.1 is loopback'],
    ['http://0x7f000001/', '127.0.0.1 is loopback'],
    ['http://0x7f.0.0.1/', '127.0.0.1 is loopback'],
    ['http://0177.0.0.1/', '127.0.0.1 is loopback'],
    ['http://127.1/', '127.0.0.1 is loopback'],
    ['http://127.0.0.1./', '127.0.0.1 is loopback'],
    ['http://[::ffff:127.0.0.1]/', '127.0.0.1 is loopback'],
    ['http://[::ffff:7f00:1]/', '127.0.0.1 is loopback'],
    ['http://[64:ff9b::7f00:1]/', 'NAT64 prefix'],
    ['http://[2002:7f00:1::]/', '6to4 prefix'],
    ['http://[::127.0.0.1]/', 'IPv4-compatible'],
    ['http://[::1]/', '::1 is loopback'],
    ['http://[::]/', ':: is unspecified'],
    ['http://0.0.0.0/', '0.0.0.0 is unspecified'],
    ['http://0/', '0.0.0.0 is unspecified'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://10.0.0.1/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://192.168.0.1/', 'private'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://240.0.0.1/', 'reserved'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://192.0.2.1/', 'reserved'],
    ['http://198.18.0.1/', 'reserved'],
    ['http://[fc00::1]/', 'unique local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://[2001:db8::1]/', 'reserved'],
    ['https://0x7f000001:8443/hook', '127.0.0.1 is loopback'],
  ])('refuses %s without a lookup (%s)', async (url, words) => {
    const { resolve, asked } = resolverOf({});
    await expect(check(url, resolve)).resolves.toEqual({
      ok: false,
      reason: expect.stringContaining(words) as string,
    });
    expect(asked).toEqual([]);
  });

  it.each(['http://8.8.8.8/hook', 'http://[2606:4700:4700::1111]:8080/hook', 'https://134744072/'])(
    'allows the public literal %s without a lookup and pins nothing (net.connect skips lookup)',
    async (url) => {
      const { resolve, asked } = resolverOf({});
      const result = await check(url, resolve);
      expect(result).toMatchObject({ ok: true, target: { pinned: null } });
      expect(asked).toEqual([]);
    },
  );

  it('resolves a name once and pins only its allowed addresses', async () => {
    const { resolve, asked } = resolverOf({
      'mixed.example.com': [
        { address: '10.0.0.5', family: 4 },
        { address: '93.184.215.14', family: 4 },
        { address: '::1', family: 6 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
        { address: '93.184.215.14', family: 4 },
      ],
    });
    await expect(check('https://mixed.example.com/hook', resolve)).resolves.toMatchObject({
      ok: true,
      target: {
        hostname: 'mixed.example.com',
        pinned: [
          { address: '93.184.215.14', family: 4 },
          { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
        ],
      },
    });
    expect(asked).toEqual(['mixed.example.com']);
  });

  it('refuses a name that resolves only to refused addresses, naming them', async () => {
    const { resolve } = resolverOf({
      localhost: [
        { address: '::1', family: 6 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    await expect(check('http://localhost:8080/', resolve)).resolves.toEqual({
      ok: false,
      reason: 'localhost resolves only to refused addresses: ::1 is loopback; 127.0.0.1 is loopback',
    });
  });

  it('refuses a name that does not resolve, or resolves to nothing', async () => {
    const { resolve } = resolverOf({ 'empty.example.com': [] });
    await expect(check('http://hooks.invalid/', resolve)).resolves.toEqual({
      ok: false,
      reason: 'hooks.invalid did not resolve (ENOTFOUND)',
    });
    await expect(check('http://empty.example.com/', resolve)).resolves.toEqual({
      ok: false,
      reason: 'empty.example.com did not resolve (no address)',
    });
  });
});

describe('parseTargetUrl', () => {
  it('takes absolute http and https URLs, and a relative one against a base', () => {
    expect(parseTargetUrl('https://hooks.example.com/a?b=1')).toEqual({
      url: new URL('https://hooks.example.com/a?b=1'),
    });
    expect(parseTargetUrl('../c?d', new URL('https://hooks.example.com/a/b/x'))).toEqual({
      url: new URL('https://hooks.example.com/a/c?d'),
    });
  });

  it.each([
    ['hooks.example.com/a', 'not a valid URL'],
    ['ftp://hooks.example.com/', 'scheme ftp: is not http or https'],
    ['file:///etc/passwd', 'scheme file: is not http or https'],
    ['gopher://127.0.0.1:6379/', 'scheme gopher: is not http or https'],
    ['https://user:pass@hooks.example.com/', 'the URL carries credentials'],
    ['https://user@hooks.example.com/', 'the URL carries credentials'],
  ])('refuses %s', (text, reason) => {
    expect(parseTargetUrl(text)).toEqual({ reason });
  });

  it('shows a URL without credentials or fragment', () => {
    expect(shownUrl(new URL('https://u:p@hooks.example.com:8443/a?b#c'))).toBe(
      'https://hooks.example.com:8443/a?b',
    );
  });
});
