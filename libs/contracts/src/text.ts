import { ValidateBy, ValidationOptions } from 'class-validator';

/**
 * C0 control characters and DEL. PostgreSQL cannot store NUL in `text` or `jsonb`, and no other
 * control character belongs in a name, an IMEI or a code: a tab or a newline in one is an attack on
 * logs or on a consumer's parser, not data.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A UTF-16 surrogate without its partner: no UTF-8 encoding exists, PostgreSQL's `jsonb` refuses its escape. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with `text` as a stored value, or undefined when nothing is. */
export function unstorableTextProblem(text: string): string | undefined {
  if (CONTROL.test(text)) return 'must not contain control characters';
  if (LONE_SURROGATE.test(text)) return 'must not contain unpaired UTF-16 surrogates';
  return undefined;
}

/** A string PostgreSQL can store and that holds no control characters. */
export function isStorableText(value: unknown): value is string {
  return typeof value === 'string' && unstorableTextProblem(value) === undefined;
}

/**
 * The decorator form of {@link isStorableText}, for event and request schemas; with `{ each: true }`
 * it checks every element of an array.
 */
export function IsStorableText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStorableText',
      validator: {
        validate: (value) => isStorableText(value),
        defaultMessage: (args) =>
          `${args?.property ?? 'value'} must be text without control characters or unpaired surrogates`,
      },
    },
    options,
  );
}
