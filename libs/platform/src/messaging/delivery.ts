import { DeadLetterHeaders, decodeEvents, EventCountHeader, TopicSpec } from '@fleet/contracts';
import { ConsumedEvent, MessageHeaders, RawBatch, RawMessage } from './message';

export interface RetryPolicy {
  /** Attempts per batch (and per isolated event) before an event is dead-lettered. */
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 5, initialBackoffMs: 100, maxBackoffMs: 2_000 };

export interface DeadLetter {
  message: RawMessage;
  error: unknown;
  attempts: number;
}

export interface DeliveryTarget<T extends object> {
  topic: TopicSpec<T>;
  group: string;
  handle(events: readonly ConsumedEvent<T>[]): Promise<void>;
  /** Must resolve only once the dead letters are durable; a rejection leaves the batch uncommitted. */
  deadLetter(topic: string, partition: number, letters: readonly DeadLetter[]): Promise<void>;
  /** Called between attempts so a broker does not think a consumer that is backing off has died. */
  keepAlive?(): Promise<void>;
  onRetry?(error: unknown, failures: number, size: number): void;
  /** True once the consumer is shutting down: retrying stops and the batch is left uncommitted. */
  isStopping?(): boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Headers recorded on a dead-lettered message so an operator can see where it came from and why. */
export function deadLetterHeaders(sourceTopic: string, partition: number, group: string, letter: DeadLetter) {
  return {
    ...letter.message.headers,
    [DeadLetterHeaders.sourceTopic]: sourceTopic,
    [DeadLetterHeaders.sourcePartition]: String(partition),
    [DeadLetterHeaders.sourceOffset]: letter.message.offset,
    [DeadLetterHeaders.consumerGroup]: group,
    [DeadLetterHeaders.attempts]: String(letter.attempts),
    [DeadLetterHeaders.error]: errorText(letter.error).slice(0, 1_000),
  };
}

/** Raised when the consumer is stopping mid-retry: the batch stays uncommitted and is redelivered later. */
export class DeliveryAbortedError extends Error {
  constructor() {
    super('consumer is stopping; batch left uncommitted');
    this.name = 'DeliveryAbortedError';
  }
}

const TRANSIENT_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Failures of infrastructure rather than of the event: the database or broker is away. Such failures are
 * retried without limit (the partition waits for the dependency, nothing is dead-lettered or lost);
 * every other failure counts toward the poison limit.
 */
export function isTransientError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    // PostgreSQL SQLSTATE: 08 connection, 53 insufficient resources, 57P0x shutdown, 40001/40P01 retryable.
    if (/^(08|53|57P0)/.test(code) || code === '40001' || code === '40P01') return true;
    if (TRANSIENT_NODE_CODES.has(code)) return true;
  }
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message);
}

/**
 * Failures no retry can mend, because the event itself cannot be stored: PostgreSQL's data exceptions
 * (SQLSTATE class 22: a NUL in text, a number out of range, an impossible date, an unsupported Unicode
 * escape in jsonb) and its not-null and check violations (23502, 23514). Such an event is dead-lettered
 * at its first failure instead of holding its partition through every retry.
 */
export function isPermanentError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (/^22[0-9A-Z]{3}$/.test(code) || code === '23502' || code === '23514');
}

type Attempted = { ok: true } | { ok: false; error: unknown; attempts: number };

async function attempt<T extends object>(
  target: DeliveryTarget<T>,
  events: readonly ConsumedEvent<T>[],
  policy: RetryPolicy,
): Promise<Attempted> {
  let backoff = policy.initialBackoffMs;
  let failures = 0;
  for (let attempts = 1; ; attempts++) {
    try {
      await target.handle(events);
      return { ok: true };
    } catch (error) {
      if (target.isStopping?.()) throw new DeliveryAbortedError();
      if (!isTransientError(error)) failures++;
      target.onRetry?.(error, failures, events.length);
      if (failures >= policy.maxAttempts || isPermanentError(error)) return { ok: false, error, attempts };
      await target.keepAlive?.();
      await sleep(backoff);
      backoff = Math.min(backoff * 2, policy.maxBackoffMs);
    }
  }
}

/**
 * One event of a grouped message as a message of its own, for its dead letter: the handler failed on
 * this event alone, so only it goes to the dead-letter topic (the others of its message were handled).
 */
function asSingleMessage(message: RawMessage, payload: object): RawMessage {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { [EventCountHeader]: count, ...headers } = message.headers;
  return { ...message, value: JSON.stringify(payload), headers };
}

/**
 * The events a message holds, from the value of its {@link EventCountHeader} (absent: 1), so that
 * chunks can be sized in events before decoding.
 */
export function eventCount(header: string | undefined): number {
  const count = Number(header);
  return Number.isInteger(count) && count > 1 ? count : 1;
}

/**
 * Consecutive chunks of a partition's messages with at most `maxEvents` events each (a message is never
 * split, and one larger than that is a chunk alone), so that a handler's batch size holds in events
 * whether its topic groups them or not.
 */
export function chunkByEvents<M extends { headers: MessageHeaders }>(
  messages: readonly M[],
  maxEvents: number,
): M[][] {
  const chunks: M[][] = [];
  let current: M[] = [];
  let events = 0;
  for (const message of messages) {
    const count = eventCount(message.headers[EventCountHeader]);
    if (current.length > 0 && events + count > maxEvents) {
      chunks.push(current);
      current = [];
      events = 0;
    }
    current.push(message);
    events += count;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * Hands one partition's batch to a handler with at-least-once semantics that never let a poison message
 * block the partition: undecodable messages are dead-lettered at once (they can never succeed); a failing
 * batch is retried with backoff, then split so that only the events that keep failing are dead-lettered;
 * a permanent failure ({@link isPermanentError}) skips the retries.
 * Resolves when every message is either handled or durably dead-lettered; the caller then commits.
 */
export async function deliverBatch<T extends object>(
  batch: RawBatch,
  target: DeliveryTarget<T>,
  policy: RetryPolicy = defaultRetryPolicy,
): Promise<void> {
  const deadLetters: DeadLetter[] = [];
  const events: ConsumedEvent<T>[] = [];
  // Where each event came from: its message, and for an event of a grouped message its payload, from
  // which its own dead letter is made only if it comes to that.
  const sourceOf = new Map<ConsumedEvent<T>, { message: RawMessage; grouped?: T }>();
  const letterOf = (event: ConsumedEvent<T>): RawMessage => {
    const { message, grouped } = sourceOf.get(event)!;
    return grouped ? asSingleMessage(message, grouped) : message;
  };

  for (const message of batch.messages) {
    let payloads: T[];
    try {
      payloads = decodeEvents(target.topic, message.value);
    } catch (error) {
      deadLetters.push({ message, error, attempts: 0 });
      continue;
    }
    for (const payload of payloads) {
      const event: ConsumedEvent<T> = {
        key: message.key ?? '',
        payload,
        headers: message.headers,
        partition: batch.partition,
        offset: message.offset,
      };
      events.push(event);
      sourceOf.set(event, payloads.length === 1 ? { message } : { message, grouped: payload });
    }
  }

  if (events.length > 0) {
    const whole = await attempt(target, events, policy);
    if (!whole.ok) {
      if (events.length === 1) {
        deadLetters.push({ message: letterOf(events[0]), error: whole.error, attempts: whole.attempts });
      } else {
        // Isolate the poison: retry each event alone, in order, so the healthy ones still get applied.
        for (const event of events) {
          const single = await attempt(target, [event], policy);
          if (!single.ok) {
            deadLetters.push({
              message: letterOf(event),
              error: single.error,
              attempts: whole.attempts + single.attempts,
            });
          }
        }
      }
    }
  }

  if (deadLetters.length > 0) {
    await target.deadLetter(batch.topic, batch.partition, deadLetters);
  }
}
