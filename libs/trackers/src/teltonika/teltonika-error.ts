export type TeltonikaErrorReason =
  | 'crc'
  | 'count-mismatch'
  | 'truncated'
  | 'oversized'
  | 'bad-preamble'
  | 'unknown-codec'
  | 'bad-imei'
  | 'malformed';

/**
 * The only error the Teltonika functions throw, for hostile bytes and for values an encoder cannot put on
 * the wire alike: a listener can close the connection on `reason` without guessing at Buffer's RangeErrors.
 * ('crc' is never thrown here: framing reports `crcValid` and leaves the decision to the caller.)
 */
export class TeltonikaError extends Error {
  constructor(
    readonly reason: TeltonikaErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'TeltonikaError';
  }
}
