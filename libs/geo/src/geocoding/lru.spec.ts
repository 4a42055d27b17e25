import { LruMap } from './lru';

describe('LruMap', () => {
  it('drops the least recently used entry beyond its capacity', () => {
    const lru = new LruMap<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    expect([...lru.keys()]).toEqual(['b', 'c']);
    expect(lru.get('a')).toBeUndefined();
    expect(lru.size).toBe(2);
  });

  it('counts a get as a use', () => {
    const lru = new LruMap<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect([...lru.keys()]).toEqual(['a', 'c']);
  });

  it('replaces the value of a key set again, as its most recent use', () => {
    const lru = new LruMap<string, number>(3);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('a', 10);
    expect([...lru.keys()]).toEqual(['b', 'a']);
    expect(lru.get('a')).toBe(10);
    expect(lru.size).toBe(2);
  });

  it('deletes from the front, the middle and the back of the order', () => {
    const lru = new LruMap<string, number>(5);
    for (const [index, key] of ['a', 'b', 'c', 'd', 'e'].entries()) lru.set(key, index);
    expect(lru.delete('c')).toBe(true);
    expect(lru.delete('a')).toBe(true);
    expect(lru.delete('e')).toBe(true);
    expect(lru.delete('e')).toBe(false);
    expect([...lru.keys()]).toEqual(['b', 'd']);
    lru.set('f', 5);
    expect([...lru.keys()]).toEqual(['b', 'd', 'f']);
  });

  it('agrees with a plain array model over a long random sequence', () => {
    // A seeded LCG, so that a failure repeats.
    let seed = 42;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    const lru = new LruMap<number, number>(7);
    const model: [number, number][] = [];
    for (let step = 0; step < 5_000; step++) {
      const key = random(12);
      const at = model.findIndex(([modelKey]) => modelKey === key);
      if (random(3) === 0) {
        const expected = at >= 0 ? model.splice(at, 1)[0][1] : undefined;
        if (expected !== undefined) model.push([key, expected]);
        expect(lru.get(key)).toBe(expected);
      } else {
        if (at >= 0) model.splice(at, 1);
        model.push([key, step]);
        if (model.length > 7) model.shift();
        lru.set(key, step);
      }
      expect([...lru.keys()]).toEqual(model.map(([modelKey]) => modelKey));
    }
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new LruMap(0)).toThrow(RangeError);
    expect(() => new LruMap(1.5)).toThrow(RangeError);
  });
});
