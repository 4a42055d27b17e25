import { IncomingMessage } from 'node:http';
import { Transform, TransformCallback, Writable } from 'node:stream';

/** A multipart body that ends before its closing delimiter: Fastify's error path makes it a 422. */
export class UnterminatedMultipartError extends Error {
  readonly statusCode = 400;

  constructor(boundary: string) {
    super(
      `multipart body: it ends before its closing boundary "--${boundary}--", so its last field may be ` +
        'cut; nothing was changed',
    );
  }
}

/**
 * Passes a multipart body through unchanged and fails at its end when the closing delimiter
 * (`--boundary--`) never came. @fastify/multipart parses with busboy and stops quietly at an
 * unexpected end ("Stop parsing without throwing an error"), so a body cut short was a 200 whose
 * cut field was silently dropped.
 */
export class MultipartEndCheck extends Transform {
  private readonly delimiter: Buffer;
  private tail = Buffer.alloc(0);
  private delimiterSeen = false;

  constructor(private readonly boundary: string) {
    super();
    this.delimiter = Buffer.from(`--${boundary}--`, 'latin1');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.delimiterSeen) {
      // The delimiter may straddle two chunks: look in the end of the last one too.
      const window = Buffer.concat([this.tail, chunk]);
      this.delimiterSeen = window.includes(this.delimiter);
      this.tail = window.subarray(Math.max(0, window.length - this.delimiter.length + 1));
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    callback(this.delimiterSeen ? null : new UnterminatedMultipartError(this.boundary));
  }
}

/**
 * Makes whatever the request body is piped into (@fastify/multipart pipes `request.raw` into busboy)
 * receive it through a {@link MultipartEndCheck}, whose error then reaches that parser as its own.
 * The plugin offers no hook between the socket and busboy, so this request's `pipe` is wrapped.
 */
export function checkMultipartEnd(raw: IncomingMessage, boundary: string): void {
  const pipe = raw.pipe.bind(raw);
  const unpipe = raw.unpipe.bind(raw);
  const checks = new Map<NodeJS.WritableStream, MultipartEndCheck>();
  raw.pipe = (<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T => {
    const check = new MultipartEndCheck(boundary);
    checks.set(destination, check);
    check.once('error', (error) => (destination as unknown as Writable).emit('error', error));
    pipe(check);
    check.pipe(destination, options);
    return destination;
  }) as typeof raw.pipe;
  raw.unpipe = ((destination?: NodeJS.WritableStream) => {
    const check = destination && checks.get(destination);
    if (!check) return unpipe(destination);
    checks.delete(destination);
    check.unpipe(destination);
    return unpipe(check);
  }) as typeof raw.unpipe;
}
