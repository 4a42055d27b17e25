import fc from 'fast-check';
import { Parameter, Schema } from './openapi-operations';

/**
 * Generators of hostile request parts, driven by the schemas of the OpenAPI document: each value is
 * either one the route accepts (so requests reach real code paths) or one that must be refused
 * cleanly. Used by hostile-inputs.fuzz.int-spec.ts.
 */

/**
 * A value as it travels: `bytes` are the decoded octets (percent-encoded in URLs and forms, sent as
 * they are in multipart and JSON), `raw` is text inserted into a URL or form exactly as given, for
 * encodings that decode to nothing valid (`%ZZ`, a lone surrogate's `%ED%A0%80`).
 */
export type Text = { bytes: Buffer } | { raw: string };

/**
 * UTF-8, except that a lone surrogate (which UTF-8 cannot carry) becomes its three-byte WTF-8 form,
 * e.g. U+D800 → ED A0 80: what a careless client sends.
 */
export function wtf8(value: string): Buffer {
  const chunks: Buffer[] = [];
  for (const char of value) {
    const code = char.codePointAt(0)!;
    chunks.push(
      code >= 0xd800 && code <= 0xdfff
        ? Buffer.from([0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)])
        : Buffer.from(char, 'utf8'),
    );
  }
  return Buffer.concat(chunks);
}

export const text = (value: string): Text => ({ bytes: wtf8(value) });

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** `value` percent-encoded for a URL or a urlencoded form: every octet but the unreserved ones. */
export function urlEncoded(value: Text): string {
  if ('raw' in value) return value.raw;
  let out = '';
  for (const byte of value.bytes) {
    const char = String.fromCharCode(byte);
    out +=
      byte < 0x80 && UNRESERVED.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The octets of `value` in a multipart part or a JSON string (raw text as it is). */
export function octets(value: Text): Buffer {
  return 'raw' in value ? Buffer.from(value.raw, 'latin1') : value.bytes;
}

/** Values an integer field must refuse or survive: the bounds of int32, int64, doubles, odd zeros. */
const NUMERIC_EDGES = [
  '0',
  '-0',
  '-1',
  '1',
  '2147483647',
  '2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740991',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '1e18',
  '1e308',
  '1e309',
  '-1e309',
  '1e-400',
  '4.9e-324',
  '0.1',
  '1.0',
  '1.5e2',
  '+1',
  '01',
  '.5',
  '5.',
  '1E3',
];

/** Notations that JavaScript's loose parsing reads as numbers but decimal notation does not. */
const NOTATIONS = [
  '0x10',
  '0b1',
  '0o7',
  ' 1',
  '1 ',
  '1_000',
  '1,5',
  'Infinity',
  '-Infinity',
  'NaN',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '1e',
  'e1',
  '--1',
  '+-1',
  '١٢',
  '１',
  '1n',
];

/** Date-times at and beyond the edges of JavaScript's and PostgreSQL's ranges, impossible dates. */
const DATES = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '+275760-09-13T00:00:00.001Z',
  '275761-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '4713-01-01T00:00:00Z',
  '294277-01-01T00:00:00Z',
  '1900-01-01T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-01-01T24:00:00Z',
  '2024-01-01T23:59:60Z',
  '2024-01-01T00:00:00+99:99',
  '2024-01-01T00:00:00.123456789Z',
  '2024-01-01',
  '2024-01-01 00:00:00',
  '2024-01-01T00:00:00',
  // ISO 8601 notations other than the extended one: valid ISO, unreadable or misread by Date.
  '20240101T000000Z',
  '20240101',
  '2024-W01-1',
  '2024-100',
  '2024-01-01T10Z',
  '2024-01-01T00:00:00,5Z',
  '2024-01-01T00',
  'now',
  '1700000000',
];

/** Texts that have hurt other services: injection, traversal, prototype keys, format strings. */
const NASTY = [
  "' OR '1'='1",
  '1; DROP TABLE x',
  '../../etc/passwd',
  '..',
  '.',
  '\\',
  '<script>',
  '${jndi:ldap://x}',
  '%s%n',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  '*',
  '%',
  'NULL',
  '\u202e',
  '\ufeff1',
  '\u00a0',
  'ǅ',
  '😀',
];

/** Percent-encodings that decode to no valid UTF-8 text, or to a separator. */
const MALFORMED_ENCODINGS = [
  '%ZZ',
  '%',
  '%0',
  '%G0',
  '%C3',
  '%ED%A0%80',
  '%ED%BF%BF',
  '%F4%90%80%80',
  '%FF',
  '%C0%80',
  '%E0%80%AF',
  '%F0%90%80',
  '%2F',
  '%2e%2e',
  '%u0000',
  '1%00',
  '%%',
];

const CONTROL_CHARACTERS = [...Array.from({ length: 32 }, (_, code) => code), 0x7f].map((code) =>
  String.fromCharCode(code),
);

/** Lengths of oversized values: just over the router's 100-character limit, large, over 16 kB. */
const HUGE_LENGTHS = [101, 257, 1_000, 8_000, 17_000];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/** Any text: every code point, lone surrogates, control characters. */
export const anyText: fc.Arbitrary<Text> = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
      { weight: 1, arbitrary: loneSurrogate },
      { weight: 1, arbitrary: fc.constantFrom(...CONTROL_CHARACTERS) },
    ),
    { maxLength: 5 },
  )
  .map((parts) => text(parts.join('')));

const hugeText: fc.Arbitrary<Text> = fc
  .tuple(fc.constantFrom(...HUGE_LENGTHS), fc.constantFrom('9', 'a', '%00', 'é', '1e9'))
  .map(([length, unit]) =>
    unit.startsWith('%')
      ? { raw: unit.repeat(Math.ceil(length / unit.length)) }
      : text(unit.repeat(Math.ceil(length / unit.length))),
  );

/** A valid value with a control character somewhere, or a control character alone. */
const withControl = (valid: fc.Arbitrary<string>): fc.Arbitrary<Text> =>
  fc.tuple(valid, fc.constantFrom(...CONTROL_CHARACTERS), fc.nat()).map(([value, control, at]) => {
    const cut = value.length ? at % (value.length + 1) : 0;
    return text(value.slice(0, cut) + control + value.slice(cut));
  });

/** Values the document's schema allows, and values known to exist in the test's tenant. */
export function validValues(schema: Schema, known: readonly string[] = []): fc.Arbitrary<string> {
  // Without bounds in the schema, small non-negative values: what a real client sends most, and what
  // a route's own rules (a course of 0–359, a signal of 0–5) accept.
  const low = schema.minimum ?? 0;
  const bySchema: fc.Arbitrary<string> =
    schema.type === 'integer'
      ? fc.integer({ min: low, max: Math.min(schema.maximum ?? low + 5, low + 1_000) }).map(String)
      : schema.type === 'number'
        ? fc
            .double({ min: low, max: schema.maximum ?? low + 90, noNaN: true, noDefaultInfinity: true })
            .map((value) => String(Object.is(value, -0) ? 0 : value))
        : schema.type === 'boolean'
          ? fc.constantFrom('true', 'false')
          : schema.format === 'date-time'
            ? fc
                .integer({ min: -40 * 86_400_000, max: 86_400_000 })
                .map((offset) => new Date(Date.now() + offset).toISOString())
            : // Printable ASCII only.
              fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 });
  return known.length ? fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...known) }, bySchema) : bySchema;
}

/**
 * The share of hostile values per input of a request with `inputs` inputs, such that about a third of
 * requests have none (and so reach the route's real work) and most of the rest have one or two.
 */
export function hostileShare(inputs: number): number {
  return Math.min(0.5, 1 - Math.pow(0.35, 1 / Math.max(1, inputs)));
}

/** One value of a parameter or field: valid, or (with probability `hostile`) hostile in one of many ways. */
export function valueOf(schema: Schema, known: readonly string[] = [], hostile = 0.5): fc.Arbitrary<Text> {
  const valid = validValues(schema, known);
  const numeric = schema.type === 'integer' || schema.type === 'number';
  const dated = schema.format === 'date-time' || schema.type === 'string';
  const hostileKinds: fc.WeightedArbitrary<Text>[] = [
    { weight: numeric ? 3 : 1, arbitrary: fc.constantFrom(...NUMERIC_EDGES).map(text) },
    { weight: numeric ? 3 : 1, arbitrary: fc.constantFrom(...NOTATIONS).map(text) },
    {
      weight: schema.format === 'date-time' ? 8 : dated ? 2 : 1,
      arbitrary: fc.constantFrom(...DATES).map(text),
    },
    { weight: 1, arbitrary: fc.constantFrom(...NASTY).map(text) },
    { weight: 2, arbitrary: withControl(valid) },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_ENCODINGS).map((raw) => ({ raw })) },
    { weight: 2, arbitrary: anyText },
    { weight: 1, arbitrary: fc.constant(text('')) },
    { weight: 1, arbitrary: hugeText },
  ];
  const hostileWeight = hostileKinds.reduce((sum, kind) => sum + kind.weight, 0);
  return fc.oneof(
    {
      weight: Math.max(1, Math.round((hostileWeight * (1 - hostile)) / hostile)),
      arbitrary: valid.map(text),
    },
    ...hostileKinds,
  );
}

/** How a parameter appears in a query or form: absent, once (valid or hostile), or repeated. */
export function occurrencesOf(
  parameter: Pick<Parameter, 'required' | 'schema'>,
  known: readonly string[],
  hostile = 0.5,
): fc.Arbitrary<Text[]> {
  const value = valueOf(parameter.schema, known, hostile);
  // A missing required value or a repeated one is hostile too: part of the same share.
  const odd = Math.max(1, Math.round(40 * hostile));
  return fc.oneof(
    { weight: parameter.required ? Math.ceil(odd / 2) : 25, arbitrary: fc.constant<Text[]>([]) },
    { weight: 100, arbitrary: value.map((one) => [one]) },
    { weight: Math.ceil(odd / 2), arbitrary: fc.array(value, { minLength: 2, maxLength: 3 }) },
  );
}

/** Query or form fields no route declares (now and then), with names that trip parsers. */
export const extraFields: fc.Arbitrary<[string, Text][]> = fc.oneof(
  { weight: 5, arbitrary: fc.constant<[string, Text][]>([]) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.tuple(
        fc.constantFrom(
          'x',
          '__proto__',
          'constructor',
          'toString',
          'hasOwnProperty',
          'page[]',
          'page[0]',
          'a.b',
          'a%00b',
          '%ZZ',
          '',
          'Page',
          'PAGESIZE',
        ),
        fc.oneof(anyText, fc.constant(text('1'))),
      ),
      { minLength: 1, maxLength: 2 },
    ),
  },
);
