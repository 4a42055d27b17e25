import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

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

/** C0 control characters and DEL: PostgreSQL cannot store NUL in text, and none belongs in a value. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The first field (a dotted path) of `value` holding a text with a control character, if any. Used by
 * the validation pipe on every route argument, so no route can pass one on to storage or a query.
 */
export function fieldWithControlCharacter(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return CONTROL.test(value) ? path || 'value' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = fieldWithControlCharacter(item, path ? `${path}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}
