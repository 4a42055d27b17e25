/**
 * How a service process ends, so that an orchestrator (and a human reading `echo $?`) can tell a
 * setting to fix from a dependency to wait for from a crash. The numbers are sysexits(3)'s.
 * docs/service-lifecycle.md has the table of what exits with which.
 */
export const ExitCodes = {
  /** Stopped on a signal, everything finished. */
  ok: 0,
  /** A crash, or a shutdown that passed SHUTDOWN_TIMEOUT_SECONDS. */
  failure: 1,
  /** EX_UNAVAILABLE: a dependency (Kafka, PostgreSQL) could not be reached at start. Retrying later may work. */
  unavailable: 69,
  /** EX_CONFIG: a setting is missing or wrong (bad value, port in use, migrations pending). Retrying will not help. */
  config: 78,
} as const;

export type ExitCode = (typeof ExitCodes)[keyof typeof ExitCodes];

/**
 * A reason not to start that the operator can act on: the process logs `message` (naming the
 * setting) and exits with `exitCode` instead of the generic 1 of a crash.
 */
export class StartupError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
    /** Extra log fields (the setting's name, the port, the host). Never a secret. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'StartupError';
  }
}

/** Node's error when a listening port is taken by another process. */
export function isAddressInUse(error: unknown): boolean {
  return (error as { code?: string } | undefined)?.code === 'EADDRINUSE';
}

/** A StartupError (exit 78) for a port another process holds, naming the setting that chose it. */
export function portInUse(setting: string, host: string, port: number): StartupError {
  return new StartupError(
    ExitCodes.config,
    `${setting}=${port} is already in use on ${host}: stop the other process or choose another port`,
    { setting, host, port },
  );
}
