export type Gt06ErrorReason = 'crc' | 'truncated' | 'oversized' | 'bad-start' | 'bad-stop' | 'malformed';

/**
 * The one error the GT06 codec throws for bad bytes, so a connection handler can tell a misbehaving
 * device (close the socket, count it) from a bug in its own code (anything else).
 */
export class Gt06Error extends Error {
  override readonly name = 'Gt06Error';

  constructor(
    readonly reason: Gt06ErrorReason,
    message: string,
  ) {
    super(message);
  }
}
