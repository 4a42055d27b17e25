/**
 * PostgreSQL array literals (`{1,2,NULL}`) for `unnest($1::int[], $2::timestamptz[], …)`: a batch of
 * rows sent column by column. PostgreSQL reads such an array for a fraction of what unpacking the same
 * rows from a JSON document costs it (docs/decisions/0019-history-columns.md), and node-postgres,
 * given a JavaScript array, quotes and escapes every element, which cost more than the insert itself.
 *
 * An element is written bare when it cannot be mistaken for anything else (numbers, booleans, and
 * texts without spaces, quotes, backslashes, commas or braces that are not `NULL`: instants, UUIDs),
 * quoted with its quotes and backslashes escaped otherwise; null and undefined are `NULL`.
 */
export type ArrayElement = string | number | boolean | null | undefined;

const BARE_TEXT = /^[^\s"\\,{}]+$/;

function element(value: ArrayElement): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value !== 'string') {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new RangeError(`an array literal holds finite numbers only, not ${value}`);
    }
    return String(value);
  }
  if (BARE_TEXT.test(value) && value.toUpperCase() !== 'NULL') return value;
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** The literal of `values`, in order (pass it as a text parameter and cast it: `$1::int[]`). */
export function arrayLiteral(values: readonly ArrayElement[]): string {
  let text = '{';
  for (let index = 0; index < values.length; index++) {
    if (index > 0) text += ',';
    text += element(values[index]);
  }
  return `${text}}`;
}
