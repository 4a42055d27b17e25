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

/** A part busboy would skip or misread (no name, no headers, …): Fastify's error path makes it a 422. */
export class MalformedMultipartError extends Error {
  readonly statusCode = 400;

  constructor(problem: string) {
    super(`${problem}; nothing was changed`);
  }
}

/** Largest header block of a part read (busboy's own `headerSize` default, beyond which it cuts). */
export const MAX_PART_HEADER_BYTES = 81_920;

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
/** A header field's name (RFC 9110 token) and its colon. */
const HEADER_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+:/;
/** One parameter of a Content-Disposition value: `; name="a;b"`, `; name=a`, `; name*=utf-8''a`. */
const PARAMETER = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"?|[^;]*)/g;

type State = 'preamble' | 'afterDelimiter' | 'headers' | 'content' | 'closed';

/**
 * Passes a multipart body through unchanged and fails, before busboy sees the rest, when the body is
 * malformed: a part without headers, with a header line that is no `Name: value`, without the blank
 * line that ends its headers, without a `Content-Disposition: form-data` header or without a name;
 * and at its end when the closing delimiter (`--boundary--`) never came.
 *
 * Why by hand: @fastify/multipart parses with busboy, which reports none of these. Its `skipPart`
 * drops a part without Content-Disposition (no headers, or a first header line it cannot read) or of
 * another disposition type; its header parser stops at the first broken line and keeps the lines
 * before it; a part whose headers never end (no blank line) never emits `header` and is dropped; a
 * part without a name is emitted with the name `undefined` (a body field called "undefined"); and
 * the plugin stops quietly at an unexpected end ("Stop parsing without throwing an error"). Neither
 * has an option or event for any of it, so each was a 200 without the field. This stage splits the
 * body at its delimiters as busboy's Dicer does (a CRLF assumed before the first), keeps only each
 * part's header block (up to {@link MAX_PART_HEADER_BYTES}), and never buffers a part's content.
 *
 * A problem found in a chunk stops that chunk: busboy never receives the closing delimiter after it,
 * so it cannot finish (and the route run) before the error reaches it.
 */
export class MultipartCheck extends Transform {
  private readonly delimiter: Buffer;
  /** Bytes not yet split: at most the start of a delimiter, kept until the next chunk tells. */
  private pending: Buffer = CRLF;
  private state: State = 'preamble';
  /** The current part's bytes from its delimiter on, while its header block is not complete. */
  private header: Buffer[] = [];
  private headerBytes = 0;
  private parts = 0;

  constructor(private readonly boundary: string) {
    super();
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.state === 'closed') return callback(null, chunk);
    try {
      this.split(Buffer.concat([this.pending, chunk]));
    } catch (error) {
      return callback(error as Error);
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    callback(this.state === 'closed' ? null : new UnterminatedMultipartError(this.boundary));
  }

  /** Splits `data` at delimiters; keeps what may be the start of one in `pending`. */
  private split(data: Buffer): void {
    let at = 0;
    while (this.state !== 'closed') {
      if (this.state === 'afterDelimiter') {
        // `--` closes the body; anything else starts a part (busboy reads `-x` as its content too).
        if (data.length - at < 2 && (data.length === at || data[at] === 0x2d)) break;
        if (data[at] === 0x2d && data[at + 1] === 0x2d) {
          this.state = 'closed';
          return;
        }
        this.parts += 1;
        this.state = 'headers';
        this.header = [];
        this.headerBytes = 0;
        continue;
      }
      const found = data.indexOf(this.delimiter, at);
      if (found < 0) {
        // Keep what could be the start of a delimiter for the next chunk.
        const keep = Math.max(at, data.length - this.delimiter.length + 1);
        this.content(data.subarray(at, keep));
        at = keep;
        break;
      }
      this.content(data.subarray(at, found));
      this.endOfPart();
      at = found + this.delimiter.length;
      this.state = 'afterDelimiter';
    }
    this.pending = this.state === 'closed' ? Buffer.alloc(0) : Buffer.from(data.subarray(at));
  }

  /** Bytes of the preamble or of the current part, none of them part of a delimiter. */
  private content(bytes: Buffer): void {
    if (this.state !== 'headers' || bytes.length === 0) return;
    this.header.push(bytes);
    this.headerBytes += bytes.length;
    const block = Buffer.concat(this.header);
    this.header = [block];
    const end = block.indexOf(HEADER_END);
    if (end >= 0) {
      this.checkHeaders(block.subarray(0, end).toString('latin1'));
      this.state = 'content';
      this.header = [];
    } else if (this.headerBytes > MAX_PART_HEADER_BYTES + HEADER_END.length) {
      throw new MalformedMultipartError(
        `multipart part ${this.parts}: its headers are longer than ${MAX_PART_HEADER_BYTES} bytes`,
      );
    }
  }

  /** A delimiter ends the current part: one still in its headers never had the blank line. */
  private endOfPart(): void {
    if (this.state !== 'headers') return;
    throw new MalformedMultipartError(
      this.headerBytes === 0
        ? `multipart part ${this.parts} is empty: it has no headers and no blank line`
        : `multipart part ${this.parts} has no blank line between its headers and its value`,
    );
  }

  /** The header block: what follows the delimiter on its line, then one header per line. */
  private checkHeaders(block: string): void {
    const part = `multipart part ${this.parts}`;
    const [afterDelimiter, ...lines] = block.split('\r\n');
    if (afterDelimiter !== '') throw new MalformedMultipartError(`${part}: text follows its boundary line`);
    if (lines.length === 0) throw new MalformedMultipartError(`${part} has no headers`);
    const headers = new Map<string, string>();
    let last: string | undefined;
    lines.forEach((line, index) => {
      const broken = () =>
        new MalformedMultipartError(
          `${part} has a malformed header line (line ${index + 1} is no "Name: value")`,
        );
      if (/[\r\n]/.test(line)) throw broken();
      if (/^[ \t]/.test(line)) {
        // A folded line continues the header before it.
        if (last === undefined) throw broken();
        headers.set(last, `${headers.get(last)}${line}`);
        return;
      }
      if (!HEADER_LINE.test(line)) throw broken();
      const colon = line.indexOf(':');
      last = line.slice(0, colon).toLowerCase();
      // Busboy reads the first of repeated headers.
      if (!headers.has(last)) headers.set(last, line.slice(colon + 1).trim());
    });
    const disposition = headers.get('content-disposition');
    if (disposition === undefined) {
      throw new MalformedMultipartError(`${part} has no Content-Disposition header`);
    }
    const type = disposition.split(';', 1)[0].trim();
    if (!/^form-data$/i.test(type)) {
      throw new MalformedMultipartError(`${part}: its Content-Disposition is not form-data`);
    }
    const name = [...disposition.matchAll(PARAMETER)].find(([, key]) => /^name\*?$/i.test(key));
    if (!name || name[2].trim().replace(/^"|"$/g, '') === '') {
      throw new MalformedMultipartError(`${part} has no name (Content-Disposition: form-data; name="…")`);
    }
  }
}

/**
 * Makes whatever the request body is piped into (@fastify/multipart pipes `request.raw` into busboy)
 * receive it through a {@link MultipartCheck}, whose error then reaches that parser as its own.
 * The plugin offers no hook between the socket and busboy, so this request's `pipe` is wrapped.
 */
export function checkMultipart(raw: IncomingMessage, boundary: string): void {
  const pipe = raw.pipe.bind(raw);
  const unpipe = raw.unpipe.bind(raw);
  const checks = new Map<NodeJS.WritableStream, MultipartCheck>();
  raw.pipe = (<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T => {
    const check = new MultipartCheck(boundary);
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
