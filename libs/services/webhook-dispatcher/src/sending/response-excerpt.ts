/** The first 1 KiB of an answer's body is what the delivery log keeps (issue 18, item 5). */
export const EXCERPT_BYTES = 1024;
/**
 * How much of a body is read at most. Reading a small body to its end lets the connection go back to
 * the pool; past this, the body is abandoned and its connection closed, so that a receiver cannot
 * make the dispatcher download megabytes. The attempt is then decided by the status alone: the
 * answer counts as complete once this much of it has arrived.
 */
export const MAX_BODY_BYTES = 64 * 1024;

/** A readable body as undici gives it: async chunks, and a way to abandon it. */
export interface BodyStream extends AsyncIterable<Buffer> {
  destroy(error?: Error): unknown;
}

/** Reads a bounded amount of an answer's body and keeps its beginning. */
export class ResponseExcerpt {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private readBytes = 0;

  /** Reads to the body's end or MAX_BODY_BYTES, whichever comes first; rejects as the body fails. */
  async read(body: BodyStream): Promise<void> {
    for await (const chunk of body) {
      if (this.keptBytes < EXCERPT_BYTES) {
        const part = chunk.subarray(0, EXCERPT_BYTES - this.keptBytes);
        this.kept.push(part);
        this.keptBytes += part.length;
      }
      this.readBytes += chunk.length;
      if (this.readBytes >= MAX_BODY_BYTES) {
        body.destroy();
        return;
      }
    }
  }

  /**
   * What was kept, as UTF-8 text: invalid sequences (a character cut at the 1 KiB mark included)
   * become U+FFFD, and so does NUL, which a PostgreSQL `text` column cannot hold.
   */
  text(): string {
    return Buffer.concat(this.kept, this.keptBytes).toString('utf8').replaceAll('\u0000', '\uFFFD');
  }
}
