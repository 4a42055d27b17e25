import { Agent, request } from 'node:http';

/** A keep-alive HTTP client with little overhead: the load generator shares two cores with the system under test. */
export class HttpClient {
  private readonly agent: Agent;

  constructor(
    private readonly baseUrl: string,
    concurrency: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  }

  send(
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: string }> {
    const url = new URL(path, this.baseUrl);
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          agent: this.agent,
          headers: body === undefined ? headers : { 'content-length': Buffer.byteLength(body), ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface LoadResult {
  requests: number;
  ok: number;
  failed: number;
  statuses: Record<string, number>;
  seconds: number;
  perSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
}

/**
 * Closed-loop load: `concurrency` workers each send the next request as soon as the previous answered,
 * for `durationMs`. `next(i)` makes request number i and resolves to its HTTP status.
 */
export async function closedLoop(
  concurrency: number,
  durationMs: number,
  next: (index: number) => Promise<number>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let index = 0;
  let failed = 0;
  const start = performance.now();
  const end = start + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const sent = performance.now();
        try {
          const status = await next(index++);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status >= 400) failed++;
        } catch {
          statuses.error = (statuses.error ?? 0) + 1;
          failed++;
        }
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] * 10) / 10;
  return {
    requests: latencies.length,
    ok: latencies.length - failed,
    failed,
    statuses,
    seconds: Math.round(seconds * 100) / 100,
    perSecond: Math.round(latencies.length / seconds),
    latencyMs: {
      p50: at(50),
      p90: at(90),
      p99: at(99),
      max: Math.round(latencies[latencies.length - 1] * 10) / 10,
    },
  };
}
