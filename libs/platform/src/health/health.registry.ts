import { Injectable } from '@nestjs/common';

/** A dependency the service cannot serve without (its database, its broker connection). */
export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency works; rejects (or times out) when it does not. */
  check(): Promise<void>;
}

/** Collects readiness checks from the modules that own each dependency. */
@Injectable()
export class HealthRegistry {
  private readonly checks: ReadinessCheck[] = [];

  register(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  async evaluate(timeoutMs: number): Promise<{ ready: boolean; checks: Record<string, string> }> {
    const results = await Promise.all(
      this.checks.map(async ({ name, check }) => {
        try {
          await withTimeout(check(), timeoutMs, `${name} did not answer within ${timeoutMs} ms`);
          return [name, 'up'] as const;
        } catch (error) {
          return [name, `down: ${error instanceof Error ? error.message : String(error)}`] as const;
        }
      }),
    );
    return {
      ready: this.checks.length > 0 && results.every(([, status]) => status === 'up'),
      checks: Object.fromEntries(results),
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
