import { Logger as NestLogger, LoggerService } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import pino, { Logger } from 'pino';
import { LogLevel } from '../config/service-config';

/**
 * One JSON object per line on stdout. Lines about an HTTP request carry its `requestId` because the
 * code that writes them passes it (the access log, the error filter, the request pipeline), not
 * through AsyncLocalStorage: on Node 20 that hooks every promise of the process, which was 20-25% of
 * query-api's CPU per request under bench/query (docs/decisions, docs/performance.md).
 */
export function createRootLogger(service: string, level: LogLevel): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: serializeError },
    mixin: traceFields,
  });
}

/**
 * `traceId` and `spanId` of the span active where the line is written, so that a log line leads to its
 * trace (docs/tracing.md). With tracing off the API has no active span and this adds nothing. A new
 * object each time: pino merges the line's own fields into what the mixin returns.
 */
export function traceFields(): { traceId?: string; spanId?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

type PinoMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** Lets Nest's `Logger` write through pino. Nest passes the context name as the last string argument. */
export class NestJsonLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(method: PinoMethod, message: unknown, params: unknown[]): void {
    const context = typeof params.at(-1) === 'string' ? (params.at(-1) as string) : undefined;
    const rest = context === undefined ? params : params.slice(0, -1);
    // Nest's error(message, stack, context) convention.
    const stack = typeof rest[0] === 'string' && rest[0].includes('\n    at ') ? rest[0] : undefined;
    const fields: Record<string, unknown> = { context };
    if (stack) fields.stack = stack;
    if (message instanceof Error) {
      this.logger[method]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      const { msg, ...objectFields } = message as Record<string, unknown>;
      this.logger[method]({ ...fields, ...objectFields }, typeof msg === 'string' ? msg : undefined);
    } else {
      this.logger[method](fields, String(message));
    }
  }
}

let installed: { key: string; logger: Logger } | undefined;

/**
 * Routes Nest's static `Logger` (used by every class of the codebase) to one JSON pino logger.
 * Call it first thing in a process, so that even boot messages are JSON.
 */
export function installJsonLogging(service: string, level: LogLevel): Logger {
  const key = `${service}:${level}`;
  if (installed?.key !== key) {
    const logger = createRootLogger(service, level);
    NestLogger.overrideLogger(new NestJsonLogger(logger));
    installed = { key, logger };
  }
  return installed.logger;
}

/** What a database error may carry of the values it was given: never written to a log. */
const VALUE_FIELDS = ['parameters', 'detail', 'where'] as const;

/**
 * pino's error serializer, less the values an error may carry: TypeORM's QueryFailedError keeps the
 * statement's parameters (user input, hashes), and PostgreSQL's `detail` quotes the offending values
 * ("Key (imei)=(...) already exists"). The statement text, the code and the message stay.
 */
export function serializeError(error: unknown): Record<string, unknown> {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  const scrub = (fields: Record<string, unknown>) => {
    for (const field of VALUE_FIELDS) delete fields[field];
  };
  scrub(serialized);
  const driverError = serialized.driverError;
  if (driverError && typeof driverError === 'object') {
    const copy = { ...(driverError as Record<string, unknown>) };
    scrub(copy);
    serialized.driverError = copy;
  }
  return serialized;
}
