import { Injectable } from '@nestjs/common';

/** A dependency the service cannot serve without (its database, its broker connection). */
export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency works; rejects (or times out) when it does not. */
  check(): Promise<void>;
  /**
   * Shown in the readiness body but never makes the service unready: for a dependency the service
   * works without (Redis: rate limits fail open), which must not take every replica out of the
   * edge's rotation. The status then says `degraded`. Never a check a client's request can change.
   */
  advisory?: boolean;
}

export type ReadinessStatus = 'ready' | 'degraded' | 'not ready' | 'shutting down';

export interface Readiness {
  ready: boolean;
  status: ReadinessStatus;
  checks: Record<string, string>;
  /** Facts for the operator that are no check (this service's JWT key id). */
  info: Record<string, string>;
}

/** Collects readiness checks from the modules that own each dependency. */
@Injectable()
export class HealthRegistry {
  private readonly checks: ReadinessCheck[] = [];
  private shuttingDown = false;
  private readonly info: Record<string, string> = {};

  register(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  /** Shown in every readiness answer under `info`: never a secret. */
  setInfo(name: string, value: string): void {
    this.info[name] = value;
  }

  /** From now on readiness is 503 `shutting down`, whatever the checks say (SIGTERM received). */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  async evaluate(timeoutMs: number): Promise<Readiness> {
    if (this.shuttingDown)
      return { ready: false, status: 'shutting down', checks: {}, info: { ...this.info } };
    const results = await Promise.all(
      this.checks.map(async ({ name, check, advisory }) => {
        try {
          await withTimeout(check(), timeoutMs, `${name} did not answer within ${timeoutMs} ms`);
          return { name, advisory, status: 'up' };
        } catch (error) {
          return {
            name,
            advisory,
            status: `down: ${error instanceof Error ? error.message : String(error)}`,
          };
        }
      }),
    );
    const required = results.filter((result) => !result.advisory);
    const ready = this.checks.length > 0 && required.every((result) => result.status === 'up');
    const degraded = results.some((result) => result.advisory && result.status !== 'up');
    return {
      ready,
      status: !ready ? 'not ready' : degraded ? 'degraded' : 'ready',
      checks: Object.fromEntries(results.map(({ name, status }) => [name, status])),
      info: { ...this.info },
    };
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
