import { createServer } from 'node:net';

/**
 * Ports are chosen below Linux's ephemeral range (32768–60999 by default): a port the OS picked for
 * `listen(0)` is one it may hand to the next outgoing connection of any process before the test's
 * service binds it (a browser, a database client and Kafka make many), which made services fail with
 * EADDRINUSE now and then. Below the range, only another listener can take it. (29092–29093 are the
 * benches' broker; 19092–19093 the tests'.)
 */
const LOWEST = 20_000;
const HIGHEST = 28_999;
/** Handed out by this process: never twice (the services binding them may not have started yet). */
const handedOut = new Set<number>();

function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A TCP port that was free a moment ago on every interface (services bind 0.0.0.0 or 127.0.0.1). */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST + 1));
    if (handedOut.has(port)) continue;
    if ((await bindable(port, '0.0.0.0')) && (await bindable(port, '127.0.0.1'))) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${LOWEST} and ${HIGHEST} after 200 tries`);
}
