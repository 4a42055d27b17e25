/**
 * Where a reader of the live channels stands (docs/stream.md). Rows are ordered by the transaction that
 * stored them (`accepted_xid`, PostgreSQL's 64-bit transaction id, as decimal text) and then by their
 * key; a position says "every row up to and including this one was read". The stream's event ids and
 * the feed's cursors are these positions written as opaque text: what clients send back is decoded
 * strictly, and anything else is refused (the feed's 422) or restarts the stream (`event: reset`).
 */

/** After a position row: (transaction, vehicle, fix time). */
export interface PositionMark {
  xid: bigint;
  vehicleId: number;
  /** Microseconds since the epoch, as PostgreSQL keeps it (exact below 2^53). */
  fixTimeUs: number;
}

/** After a row of a keyed table: (transaction, key): alerts by record id, commands by change number. */
export interface RowMark {
  xid: bigint;
  key: number;
}

/**
 * Before every row of transaction `xid` and later ones: where a reader starts from a horizon (every
 * transaction before `xid` had ended), since real rows have vehicle and record ids of at least 1.
 */
export const positionsFrom = (xid: bigint): PositionMark => ({ xid, vehicleId: 0, fixTimeUs: 0 });
export const rowsFrom = (xid: bigint): RowMark => ({ xid, key: 0 });

/** Whether `a` is strictly after `b`. */
export function positionAfter(a: PositionMark, b: PositionMark): boolean {
  if (a.xid !== b.xid) return a.xid > b.xid;
  if (a.vehicleId !== b.vehicleId) return a.vehicleId > b.vehicleId;
  return a.fixTimeUs > b.fixTimeUs;
}

export function rowAfter(a: RowMark, b: RowMark): boolean {
  return a.xid !== b.xid ? a.xid > b.xid : a.key > b.key;
}

/** Where a stream client stands, in every kind at once, and when the id was issued. */
export interface StreamMark {
  /** Unix ms when the server wrote this id: older than STREAM_RESUME_HOURS gets `event: reset`. */
  issuedAtMs: number;
  positions: PositionMark;
  alerts: RowMark;
  commands: RowMark;
}

const DIGITS = /^(0|[1-9]\d{0,19})$/;
const MAX_XID = (1n << 64n) - 1n;

function xidOf(text: string): bigint | undefined {
  if (!DIGITS.test(text)) return undefined;
  const xid = BigInt(text);
  return xid <= MAX_XID ? xid : undefined;
}

function intOf(text: string, max = 2 ** 31 - 1): number | undefined {
  if (!DIGITS.test(text)) return undefined;
  const value = Number(text);
  return value <= max ? value : undefined;
}

const MAX_TIME_MS = 8.64e15;

const toText = (fields: readonly (string | number | bigint)[]): string =>
  Buffer.from(fields.join('.')).toString('base64url');

function fieldsOf(token: string, tag: string, count: number): string[] | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(token)) return undefined;
  const fields = Buffer.from(token, 'base64url').toString('latin1').split('.');
  return fields.length === count + 1 && fields[0] === tag ? fields.slice(1) : undefined;
}

function positionMarkOf(xid: string, vehicleId: string, fixTimeUs: string): PositionMark | undefined {
  const mark = {
    xid: xidOf(xid),
    vehicleId: intOf(vehicleId),
    fixTimeUs: intOf(fixTimeUs, Number.MAX_SAFE_INTEGER),
  };
  return mark.xid === undefined || mark.vehicleId === undefined || mark.fixTimeUs === undefined
    ? undefined
    : (mark as PositionMark);
}

function rowMarkOf(xid: string, key: string): RowMark | undefined {
  const mark = { xid: xidOf(xid), key: intOf(key, Number.MAX_SAFE_INTEGER) };
  return mark.xid === undefined || mark.key === undefined ? undefined : (mark as RowMark);
}

export function streamIdOf(mark: StreamMark): string {
  const { positions: p, alerts: a, commands: c } = mark;
  return toText(['s1', mark.issuedAtMs, p.xid, p.vehicleId, p.fixTimeUs, a.xid, a.key, c.xid, c.key]);
}

/** The mark of a stream id this server wrote, or undefined for anything else. */
export function streamMarkOf(id: string): StreamMark | undefined {
  const fields = fieldsOf(id, 's1', 8);
  if (!fields) return undefined;
  const issuedAtMs = intOf(fields[0], MAX_TIME_MS);
  const positions = positionMarkOf(fields[1], fields[2], fields[3]);
  const alerts = rowMarkOf(fields[4], fields[5]);
  const commands = rowMarkOf(fields[6], fields[7]);
  return issuedAtMs === undefined || !positions || !alerts || !commands
    ? undefined
    : { issuedAtMs, positions, alerts, commands };
}

export const positionCursorOf = (mark: PositionMark): string =>
  toText(['p1', mark.xid, mark.vehicleId, mark.fixTimeUs]);

export function positionMarkOfCursor(cursor: string): PositionMark | undefined {
  const fields = fieldsOf(cursor, 'p1', 3);
  return fields && positionMarkOf(fields[0], fields[1], fields[2]);
}

export const alertCursorOf = (mark: RowMark): string => toText(['a1', mark.xid, mark.key]);

export function alertMarkOfCursor(cursor: string): RowMark | undefined {
  const fields = fieldsOf(cursor, 'a1', 2);
  return fields && rowMarkOf(fields[0], fields[1]);
}
