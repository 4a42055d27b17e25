/** Thrown at boot when settings are missing or malformed; lists every problem at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads typed settings from the environment. Each reader records a problem instead of throwing,
 * so that `assertValid()` can report every bad setting in one message naming each variable.
 */
export class EnvReader {
  private readonly problems: string[] = [];

  constructor(private readonly env: Env = process.env) {}

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  private missing<T>(name: string, fallback: T | undefined, what: string): T {
    if (fallback === undefined) {
      this.problems.push(`${name} is required (${what})`);
    }
    return fallback as T;
  }

  string(name: string, fallback?: string): string {
    return this.raw(name) ?? this.missing(name, fallback, 'a text value');
  }

  /** A secret: checked for length, never echoed in a problem report. */
  secret(name: string, minLength: number, fallback?: string): string {
    const value = this.raw(name) ?? fallback;
    if (value === undefined)
      return this.missing(name, fallback, `a secret of at least ${minLength} characters`);
    if (value.length < minLength) {
      this.problems.push(`${name} is too short: at least ${minLength} characters are required`);
    }
    return value;
  }

  optionalString(name: string): string | undefined {
    return this.raw(name);
  }

  int(name: string, fallback?: number, range: { min?: number; max?: number } = {}): number {
    const value = this.raw(name);
    if (value === undefined) return this.missing(name, fallback, 'an integer');
    const parsed = Number(value);
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(parsed)) {
      this.problems.push(`${name} must be an integer, got "${value}"`);
      return fallback ?? 0;
    }
    if ((range.min !== undefined && parsed < range.min) || (range.max !== undefined && parsed > range.max)) {
      this.problems.push(
        `${name} must be between ${range.min ?? '-inf'} and ${range.max ?? 'inf'}, got ${parsed}`,
      );
    }
    return parsed;
  }

  port(name: string, fallback?: number): number {
    return this.int(name, fallback, { min: 0, max: 65535 });
  }

  bool(name: string, fallback?: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return this.missing(name, fallback, 'true or false');
    if (['true', '1', 'yes'].includes(value)) return true;
    if (['false', '0', 'no'].includes(value)) return false;
    this.problems.push(`${name} must be true or false, got "${value}"`);
    return fallback ?? false;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback?: T): T {
    const value = this.raw(name);
    if (value === undefined) return this.missing(name, fallback, `one of ${allowed.join(', ')}`);
    if (!(allowed as readonly string[]).includes(value)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
      return fallback ?? allowed[0];
    }
    return value as T;
  }

  /** Comma-separated list, e.g. KAFKA_BROKERS=host1:9092,host2:9092. */
  list(name: string, fallback?: string[]): string[] {
    const value = this.raw(name);
    if (value === undefined) return this.missing(name, fallback, 'a comma-separated list');
    return value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  }

  url(name: string, protocols: readonly string[], fallback?: string): string {
    const value = this.raw(name) ?? fallback;
    if (value === undefined) return this.missing(name, fallback, `a ${protocols.join(' or ')} URL`);
    try {
      const parsed = new URL(value);
      if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
        this.problems.push(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
      }
    } catch {
      this.problems.push(`${name} must be a URL, got "${redactUrl(value)}"`);
    }
    return value;
  }

  /** Records a problem found by a caller's own check of a setting. */
  problem(description: string): void {
    this.problems.push(description);
  }

  /** Throws a ConfigError naming every bad setting read so far. */
  assertValid(): void {
    if (this.problems.length > 0) {
      throw new ConfigError([...this.problems]);
    }
  }
}

/** Hides a password in a connection URL before it is shown anywhere. */
export function redactUrl(value: string): string {
  return value.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
