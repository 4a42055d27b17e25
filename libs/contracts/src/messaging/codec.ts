import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { TopicSpec } from './topic';

/** A payload that does not match its topic's schema. Never retried: it cannot succeed later. */
export class EventSchemaError extends Error {
  constructor(
    readonly topicName: string,
    readonly problems: string[],
  ) {
    super(`Invalid ${topicName} payload: ${problems.join('; ')}`);
    this.name = 'EventSchemaError';
  }
}

function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => `${path}: ${message}`);
    return [...own, ...describe(error.children ?? [], path)];
  });
}

/** Validates a plain object against the topic's payload class and returns a typed instance. */
export function validatePayload<T extends object>(topic: TopicSpec<T>, plain: unknown): T {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw new EventSchemaError(topic.name, ['payload must be a JSON object']);
  }
  if (topic.check) {
    const { problems, event } = topic.check(plain as Record<string, unknown>);
    if (problems.length > 0) throw new EventSchemaError(topic.name, problems);
    return event;
  }
  const instance = plainToInstance(topic.payload, plain);
  // Unknown fields are stripped, not rejected: a newer producer may add optional fields to a version.
  const errors = validateSync(instance, { whitelist: true, forbidUnknownValues: true });
  if (errors.length > 0) {
    throw new EventSchemaError(topic.name, describe(errors));
  }
  return instance;
}

/** Produce side: refuse to publish what consumers would have to dead-letter. */
export function encodeEvent<T extends object>(topic: TopicSpec<T>, payload: T): string {
  return JSON.stringify(validatePayload(topic, payload));
}

/** Consume side: trust nothing that arrives over the wire. */
export function decodeEvent<T extends object>(topic: TopicSpec<T>, raw: string | Buffer | null): T {
  if (raw === null) {
    throw new EventSchemaError(topic.name, ['message has no value']);
  }
  let plain: unknown;
  try {
    plain = JSON.parse(raw.toString());
  } catch {
    throw new EventSchemaError(topic.name, ['value is not valid JSON']);
  }
  return validatePayload(topic, plain);
}
