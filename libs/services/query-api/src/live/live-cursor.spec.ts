import fc from 'fast-check';
import {
  rowAfter,
  alertCursorOf,
  alertMarkOfCursor,
  rowsFrom,
  positionAfter,
  positionCursorOf,
  positionMarkOfCursor,
  positionsFrom,
  StreamMark,
  streamIdOf,
  streamMarkOf,
} from './live-cursor';

const xid = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const int = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const time = fc.integer({ min: 0, max: 8.64e15 });
const streamMark = fc.record({
  issuedAtMs: time,
  positions: fc.record({
    xid,
    vehicleId: int,
    fixTimeUs: fc.maxSafeNat(),
  }),
  alerts: fc.record({ xid, key: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }) }),
  commands: fc.record({ xid, key: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }) }),
});

describe('live cursors', () => {
  it('round-trips every stream id, position cursor and alert cursor', () => {
    fc.assert(
      fc.property(streamMark, (mark: StreamMark) => {
        expect(streamMarkOf(streamIdOf(mark))).toEqual(mark);
        expect(positionMarkOfCursor(positionCursorOf(mark.positions))).toEqual(mark.positions);
        expect(alertMarkOfCursor(alertCursorOf(mark.alerts))).toEqual(mark.alerts);
      }),
    );
  });

  it('are opaque text a URL and an SSE id line carry unchanged', () => {
    const id = streamIdOf({
      issuedAtMs: 1_790_000_000_000,
      positions: { xid: 123456n, vehicleId: 7, fixTimeUs: 1_790_000_000_000 },
      alerts: rowsFrom(99n),
      commands: rowsFrom(99n),
    });
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('refuses what this server did not write', () => {
    const valid = positionCursorOf({ xid: 5n, vehicleId: 1, fixTimeUs: 2 });
    for (const bad of [
      '',
      'x',
      'not base64!',
      valid + '==',
      alertCursorOf(rowsFrom(5n)), // another kind's cursor
      Buffer.from('p1.5.1').toString('base64url'), // a field missing
      Buffer.from('p1.5.1.2.3').toString('base64url'), // one too many
      Buffer.from('p1.-5.1.2').toString('base64url'),
      Buffer.from('p1.05.1.2').toString('base64url'),
      Buffer.from('p1.5.1.2e3').toString('base64url'),
      Buffer.from(`p1.${1n << 64n}.1.2`).toString('base64url'), // beyond a 64-bit xid
      Buffer.from(`p1.5.${2 ** 31}.2`).toString('base64url'),
      'A'.repeat(201),
    ]) {
      expect(positionMarkOfCursor(bad)).toBeUndefined();
    }
    expect(streamMarkOf(valid)).toBeUndefined();
    expect(alertMarkOfCursor(valid)).toBeUndefined();
  });

  it('orders positions by transaction, vehicle, then fix time', () => {
    const mark = { xid: 10n, vehicleId: 5, fixTimeUs: 1000 };
    expect(positionAfter({ ...mark, xid: 11n, vehicleId: 1, fixTimeUs: 0 }, mark)).toBe(true);
    expect(positionAfter({ ...mark, vehicleId: 6, fixTimeUs: 0 }, mark)).toBe(true);
    expect(positionAfter({ ...mark, fixTimeUs: 1001 }, mark)).toBe(true);
    expect(positionAfter(mark, mark)).toBe(false);
    expect(positionAfter({ ...mark, xid: 9n, vehicleId: 99 }, mark)).toBe(false);
    // A start from a horizon comes before every row of that transaction.
    expect(positionAfter({ xid: 10n, vehicleId: 1, fixTimeUs: 0 }, positionsFrom(10n))).toBe(true);
  });

  it('orders alerts by transaction, then record id', () => {
    expect(rowAfter({ xid: 3n, key: 1 }, { xid: 2n, key: 50 })).toBe(true);
    expect(rowAfter({ xid: 2n, key: 51 }, { xid: 2n, key: 50 })).toBe(true);
    expect(rowAfter({ xid: 2n, key: 50 }, { xid: 2n, key: 50 })).toBe(false);
    expect(rowAfter({ xid: 2n, key: 1 }, rowsFrom(2n))).toBe(true);
  });
});
