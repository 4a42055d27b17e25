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

/**
 * Marks payloads `checkForPublish` has already checked, with the topic they were checked for. They are
 * frozen, so nothing can change them between the check and the send, and `encodeEvent` writes them
 * without checking again. The mark is a property under a symbol only this module has, not enumerable:
 * JSON leaves it out and a spread copy (`{ ...payload }`, which may then be changed) does not carry it.
 * (A WeakMap did the same, but its entries cost the garbage collector about 0.7 µs an event.)
 */
const CHECKED_FOR = Symbol('checkedForPublish');

const checkedTopicOf = (payload: object): TopicSpec<object> | undefined =>
  (payload as { [CHECKED_FOR]?: TopicSpec<object> })[CHECKED_FOR];

/**
 * The produce-side check, done early: a producer that must answer per item (the tracker ports refuse one
 * bad record alone, never the send other devices' records share) checks each payload here, and the
 * publisher does not check it a second time. Returns the problems, or the checked, frozen payload.
 */
export function checkForPublish<T extends object>(
  topic: TopicSpec<T>,
  plain: T,
): { problems: string[]; payload?: T } {
  let payload: T;
  try {
    payload = validatePayload(topic, plain);
  } catch (error) {
    if (error instanceof EventSchemaError) return { problems: error.problems };
    throw error;
  }
  Object.defineProperty(payload, CHECKED_FOR, { value: topic, enumerable: false });
  Object.freeze(payload);
  return { problems: [], payload };
}

/** Produce side: refuse to publish what consumers would have to dead-letter. */
export function encodeEvent<T extends object>(topic: TopicSpec<T>, payload: T): string {
  return JSON.stringify(checkedOrValid(topic, payload));
}

/** The payload itself when `checkForPublish` checked it for this topic; otherwise checked now. */
function checkedOrValid<T extends object>(topic: TopicSpec<T>, payload: T): T {
  return checkedTopicOf(payload) === topic ? payload : validatePayload(topic, payload);
}

/**
 * Produce side, for a topic that groups events of a key ({@link TopicSpec.groupsEventsOfAKey}): the
 * events of one message, as a JSON array in their order, each checked as `encodeEvent` checks it.
 */
export function encodeEvents<T extends object>(topic: TopicSpec<T>, payloads: readonly T[]): string {
  if (!topic.groupsEventsOfAKey) {
    throw new Error(`${topic.name} does not group events: publish them one message each`);
  }
  // One JSON.stringify of the array: the same text as each event's own joined, at about two thirds of
  // the cost (docs/performance.md, "Tracker ports").
  return JSON.stringify(payloads.map((payload) => checkedOrValid(topic, payload)));
}

function parseValue(topic: TopicSpec<object>, raw: string | Buffer | null): unknown {
  if (raw === null) {
    throw new EventSchemaError(topic.name, ['message has no value']);
  }
  try {
    return JSON.parse(raw.toString());
  } catch {
    throw new EventSchemaError(topic.name, ['value is not valid JSON']);
  }
}

/** Consume side: trust nothing that arrives over the wire. */
export function decodeEvent<T extends object>(topic: TopicSpec<T>, raw: string | Buffer | null): T {
  return validatePayload(topic, parseValue(topic, raw));
}

/**
 * Consume side, any message: the one event of a plain message, or every event of a grouped one (on a
 * topic that groups; elsewhere an array is refused like any other non-object). All or nothing: one bad
 * event makes the whole message undecodable.
 */
export function decodeEvents<T extends object>(topic: TopicSpec<T>, raw: string | Buffer | null): T[] {
  const plain = parseValue(topic, raw);
  if (!Array.isArray(plain) || !topic.groupsEventsOfAKey) return [validatePayload(topic, plain)];
  if (plain.length === 0) throw new EventSchemaError(topic.name, ['a grouped message holds no event']);
  return plain.map((element, index) => {
    try {
      return validatePayload(topic, element);
    } catch (error) {
      if (!(error instanceof EventSchemaError)) throw error;
      throw new EventSchemaError(
        topic.name,
        error.problems.map((problem) => `event ${index}: ${problem}`),
      );
    }
  });
}
