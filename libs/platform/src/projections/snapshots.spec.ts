import { SnapshotMap } from './snapshots';

describe('SnapshotMap', () => {
  it('keeps the newest snapshot per key, and reports what each applied one replaced', () => {
    const map = new SnapshotMap<string, { id: string; version: number; name: string }>((s) => s.id);
    const changes = map.apply([
      { id: 'a', version: 2, name: 'second' },
      { id: 'a', version: 1, name: 'first, redelivered late' },
      { id: 'a', version: 2, name: 'second again' },
      { id: 'b', version: 1, name: 'other' },
    ]);
    expect(changes.map((change) => [change.previous?.name, change.current.name])).toEqual([
      [undefined, 'second'],
      ['second', 'second again'],
      [undefined, 'other'],
    ]);
    expect(map.get('a')?.name).toBe('second again');
    expect([...map.keys()]).toEqual(['a', 'b']);
  });
});
