/**
 * The bench's slow readers (issue 54): raw TCP connections that send a stream request with a valid
 * token and then never read, so their receive window fills and the server's send buffer grows, as a
 * client that hangs or a hostile one would. Each follows its whole company (the most events a token
 * gets), so it falls behind as fast as the bench's flow allows. At the end they read what is left, to
 * tell how the server ended each: `reset` (the send buffer cap), another event, or not at all.
 */
import { connect, Socket } from 'node:net';

/** How long the final read waits for every slow reader's remaining bytes. */
const FINAL_READ_MS = 20_000;
/** What a slow reader keeps of what it reads at the end: enough for the last event. */
const TAIL_CHARS = 4_096;

interface SlowReader {
  socket: Socket;
  /** The last characters read (at the end), and whether the connection ended. */
  tail: string;
  ended: boolean;
}

export class SlowReaders {
  private readers: SlowReader[] = [];

  constructor(
    private readonly baseUrl: string,
    private readonly tokens: readonly string[],
  ) {}

  /** Connects every reader (100 at a time), sends its request and stops reading at once. */
  async open(): Promise<void> {
    const { hostname, port } = new URL(this.baseUrl);
    for (let at = 0; at < this.tokens.length; at += 100) {
      const batch = this.tokens.slice(at, at + 100).map(
        (token) =>
          new Promise<SlowReader>((resolve, reject) => {
            const socket = connect(Number(port), hostname, () => {
              socket.write(
                `GET /v2/api/stream?types=positions HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
                  `Authorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`,
              );
              // Never read: the kernel's buffers fill, then the server's.
              socket.pause();
              resolve(reader);
            });
            const reader: SlowReader = { socket, tail: '', ended: false };
            socket.on('error', (error) => (socket.connecting ? reject(error) : undefined));
            socket.on('close', () => (reader.ended = true));
          }),
      );
      this.readers.push(...(await Promise.all(batch)));
    }
  }

  get count(): number {
    return this.readers.length;
  }

  /**
   * Reads what every reader has left, until each connection ended or FINAL_READ_MS passed: how many
   * saw `reset` as their last event, how many ended otherwise, how many are still open.
   */
  async readRest(): Promise<{
    reset: number;
    endedOtherwise: number;
    stillOpen: number;
    lastEvents: Record<string, number>;
  }> {
    for (const reader of this.readers) {
      reader.socket.setEncoding('latin1');
      reader.socket.on('data', (chunk: string) => (reader.tail = (reader.tail + chunk).slice(-TAIL_CHARS)));
      reader.socket.resume();
    }
    const deadline = Date.now() + FINAL_READ_MS;
    while (Date.now() < deadline && this.readers.some((reader) => !reader.ended))
      await new Promise((resolve) => setTimeout(resolve, 250));
    const lastEvents: Record<string, number> = {};
    let reset = 0;
    let endedOtherwise = 0;
    let stillOpen = 0;
    for (const reader of this.readers) {
      const last = [...reader.tail.matchAll(/^event: (\w+)$/gm)].at(-1)?.[1] ?? 'none';
      lastEvents[last] = (lastEvents[last] ?? 0) + 1;
      if (!reader.ended) stillOpen++;
      else if (last === 'reset') reset++;
      else endedOtherwise++;
    }
    return { reset, endedOtherwise, stillOpen, lastEvents };
  }

  close(): void {
    for (const reader of this.readers) reader.socket.destroy();
  }
}
