import type { LookupAddress, LookupOptions } from 'node:dns';
import { CheckedAddress } from './address-policy';
import { CheckNow, PinnedLookup, RefusedAddressError } from './pinned-lookup';

interface LookupAnswer {
  error: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family?: number;
}

/** Calls the lookup as net.connect does and collects its callback's arguments. */
function ask(pinned: PinnedLookup, hostname: string, options: LookupOptions): Promise<LookupAnswer> {
  return new Promise((resolve) => {
    pinned.lookup(hostname, options, (error, address, family) => resolve({ error, address, family }));
  });
}

const both: CheckedAddress[] = [
  { address: '203.0.113.10', family: 4 },
  { address: '2001:db8::10', family: 6 },
];

describe('PinnedLookup', () => {
  const neverCalled: CheckNow = () => Promise.reject(new Error('the pinned answer must be used'));

  it('answers a pinned name with the list shape family auto-selection asks for ({ all: true })', async () => {
    const pinned = new PinnedLookup(neverCalled);
    pinned.pin('hooks.example.com', both);
    await expect(ask(pinned, 'hooks.example.com', { all: true })).resolves.toEqual({
      error: null,
      address: [
        { address: '203.0.113.10', family: 4 },
        { address: '2001:db8::10', family: 6 },
      ],
      family: undefined,
    });
  });

  it('answers a pinned name with one address and its family without { all: true }', async () => {
    const pinned = new PinnedLookup(neverCalled);
    pinned.pin('hooks.example.com', both);
    await expect(ask(pinned, 'hooks.example.com', {})).resolves.toEqual({
      error: null,
      address: '203.0.113.10',
      family: 4,
    });
    await expect(ask(pinned, 'hooks.example.com', { family: 6 })).resolves.toEqual({
      error: null,
      address: '2001:db8::10',
      family: 6,
    });
  });

  it('fails rather than answer a family it has no checked address of', async () => {
    const pinned = new PinnedLookup(neverCalled);
    pinned.pin('v4.example.com', [both[0]]);
    const answer = await ask(pinned, 'v4.example.com', { family: 6, all: true });
    expect(answer.error).toBeInstanceOf(RefusedAddressError);
  });

  it('checks a name nobody pinned itself, and refuses what the check refuses', async () => {
    const checkNow = jest.fn<ReturnType<CheckNow>, Parameters<CheckNow>>();
    checkNow.mockResolvedValueOnce({ addresses: [both[0]] });
    checkNow.mockResolvedValueOnce({ reason: 'internal.example.com resolves only to refused addresses' });
    const pinned = new PinnedLookup(checkNow);

    await expect(ask(pinned, 'public.example.com', { all: true })).resolves.toEqual({
      error: null,
      address: [{ address: '203.0.113.10', family: 4 }],
      family: undefined,
    });
    const refused = await ask(pinned, 'internal.example.com', { all: true });
    expect(refused.error).toBeInstanceOf(RefusedAddressError);
    expect((refused.error as RefusedAddressError).reason).toBe(
      'internal.example.com resolves only to refused addresses',
    );
    expect(checkNow.mock.calls).toEqual([['public.example.com'], ['internal.example.com']]);
  });

  it('passes a failing check on as the connection error', async () => {
    const pinned = new PinnedLookup(() =>
      Promise.reject(Object.assign(new Error('boom'), { code: 'ESERVFAIL' })),
    );
    const answer = await ask(pinned, 'broken.example.com', {});
    expect(answer.error).toMatchObject({ code: 'ESERVFAIL' });
  });

  it('keeps a pin while any request to the name is in flight, with the newest check', async () => {
    const pinned = new PinnedLookup(neverCalled);
    const releaseFirst = pinned.pin('hooks.example.com', [both[0]]);
    const releaseSecond = pinned.pin('hooks.example.com', [both[1]]);
    releaseFirst();
    releaseFirst(); // a second release of the same pin changes nothing
    expect(pinned.size).toBe(1);
    await expect(ask(pinned, 'hooks.example.com', {})).resolves.toEqual({
      error: null,
      address: '2001:db8::10',
      family: 6,
    });
    releaseSecond();
    expect(pinned.size).toBe(0);
  });
});
