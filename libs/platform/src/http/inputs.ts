import { isInstantText, unstorableTextProblem } from '@fleet/contracts';
import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, Max, Min, ValidateBy } from 'class-validator';

/**
 * Shared reading of the values that arrive as text (path, query, form fields), so that every route
 * parses them alike and stays within what the database can hold.
 */

/** The largest id: ids are PostgreSQL `integer` columns. */
export const MAX_ID = 2_147_483_647;

/** Plain decimal notation: an optional sign, digits with an optional fraction, an optional exponent. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A number given as text: decimal notation only, so `0x10`, ` 1`, `1_000` and `Infinity` stay text
 * and fail the number check with the field's name; an empty value counts as missing (so a required
 * field says so, and an optional one takes its default). Values that are already numbers (JSON
 * bodies) pass through.
 */
export const NumberInput = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    if (value === '') return undefined;
    return DECIMAL.test(value) ? Number(value) : value;
  });

/** An integer given as text, between `min` and `max` (both inclusive). */
export const IntegerInput = (min: number, max: number): PropertyDecorator =>
  applyDecorators(NumberInput(), IsInt(), Min(min), Max(max));

/** An id of a path or query value: a positive integer that fits the database's `integer`. */
export const IdInput = (): PropertyDecorator => IntegerInput(1, MAX_ID);

/**
 * A boolean given as text: `true` or `false` in any case; anything else stays text and fails the
 * boolean check with the field's name. JSON booleans pass through.
 */
export const BooleanInput = (): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      if (typeof value !== 'string') return value;
      const lower = value.toLowerCase();
      return lower === 'true' ? true : lower === 'false' ? false : value;
    }),
    IsBoolean(),
  );

/** True when `value` is a date-time text that every route reads to the instant it names (contracts' rule). */
export const isDateTimeText = isInstantText;

/** A date-time given as text: ISO 8601 in extended notation (e.g. `2026-04-28T10:00:00Z`), 422 otherwise. */
export const DateTimeInput = (): PropertyDecorator =>
  ValidateBy({
    name: 'isDateTimeText',
    validator: {
      validate: (value) => isDateTimeText(value),
      defaultMessage: () => 'must be an ISO 8601 date-time such as 2026-04-28T10:00:00Z',
    },
  });

/**
 * Deepest nesting of arrays and objects a request value may have. No route reads more than a few
 * levels; a body nested thousands deep (a few kB of `[[[[...`) would overflow the stack of every
 * recursive reader after the parser (class-transformer, class-validator), a 500.
 */
export const MAX_NESTING = 32;

/**
 * What is wrong with a request value (a path, query or body argument) whatever the route: the first
 * field (a path such as `positions[0].driver`) holding text PostgreSQL cannot store or with a control
 * character (the contracts' `unstorableTextProblem`), or nesting deeper than
 * {@link MAX_NESTING}; undefined when neither. Used by the validation pipe on every route argument,
 * so no route can pass one on to storage or a query. Iterative, so any depth is safe to inspect.
 */
export function inputProblem(value: unknown, path = ''): string | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path, depth: 0 }];
  while (pending.length) {
    const item = pending.pop()!;
    if (typeof item.value === 'string') {
      const problem = unstorableTextProblem(item.value);
      if (problem !== undefined) return `${item.path || 'value'}: ${problem}`;
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= MAX_NESTING) {
      return `${item.path || 'body'}: must not be nested more than ${MAX_NESTING} levels deep`;
    }
    // Pushed in reverse, so fields are looked at in their order and the first bad one is named.
    const entries = Object.entries(item.value);
    const array = Array.isArray(item.value);
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, child] = entries[index];
      pending.push({ value: child, path: childPath(item.path, key, array), depth: item.depth + 1 });
    }
  }
  return undefined;
}

/** `positions[0]` for an array element, `position.driver` for an object member. */
function childPath(path: string, key: string, inArray: boolean): string {
  if (inArray) return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}
