import fc from 'fast-check';
import { Schema } from './openapi-operations';
import {
  anyText,
  extraFields,
  hostileShare,
  occurrencesOf,
  octets,
  Text,
  text,
  urlEncoded,
  validValues,
  valueOf,
} from './hostile-values';

/** A request body as sent: its Content-Type (none when undefined) and octets. */
export interface BodyPlan {
  kind: string;
  contentType?: string;
  body?: Buffer;
}

/** Values known to exist in the tenant, by field or parameter name. */
export type Known = Readonly<Record<string, readonly string[]>>;

/** One over Fastify's body limit (1 MiB), whatever the parser. */
const OVER_BODY_LIMIT = 1_048_576 + 1_024;

/** Content types a client may send by mistake or malice, including broken ones. */
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/json, text/plain',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=""',
  'multipart/form-data; boundary=x',
  'multipart/form-data; boundary=x; boundary=y',
  'multipart/mixed; boundary=x',
  'text/plain',
  'text/html',
  'application/xml',
  'application/octet-stream',
  '*/*',
  ';',
  'a/b/c',
  'application/json;charset=',
  `application/${'x'.repeat(1_000)}`,
];

/** Bodies that are not what their Content-Type says, or nothing at all. */
const RAW_BODIES = [
  '',
  '{',
  '{"a":',
  '}',
  'null',
  'true',
  '0',
  '[]',
  '""',
  '"text"',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"a":1,"a":2}',
  '\ufeff{}',
  '{"a":1e999}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  'a=1&b',
  'a=%ZZ',
  '=&=&',
  '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
  '--x\r\n\r\n',
  '\u0000\u0001\u0002',
];

/** Nesting deep enough to overflow a recursive walk of the parsed body. */
const deeplyNested: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(1_000, 20_000, 200_000), fc.constantFrom('array', 'object'))
  .map(([depth, shape]) =>
    shape === 'array'
      ? '['.repeat(depth) + ']'.repeat(depth)
      : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
  );

/** Form fields of `schema` (mostly valid, each hostile in its own way), as name → values. */
function formFieldsOf(schema: Schema | undefined, known: Known): fc.Arbitrary<[string, Text][]> {
  const properties = Object.entries(schema?.properties ?? { apiKey: { type: 'string' } });
  const required = new Set(schema?.required ?? []);
  const hostile = hostileShare(properties.length);
  return fc
    .tuple(
      fc.tuple(
        ...properties.map(([name, property]) =>
          occurrencesOf({ required: required.has(name), schema: property }, known[name] ?? [], hostile).map(
            (values) => values.map((value): [string, Text] => [name, value]),
          ),
        ),
      ),
      extraFields,
    )
    .map(([declared, extra]) => [...declared.flat(), ...extra]);
}

function urlencodedBody(fields: [string, Text][]): Buffer {
  return Buffer.from(fields.map(([name, value]) => `${name}=${urlEncoded(value)}`).join('&'), 'latin1');
}

function multipartBody(boundary: string, fields: [string, Text][], asFile: boolean): Buffer {
  const parts = fields.map(([name, value]) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/"/g, '%22')}"` +
          (asFile ? '; filename="a.txt"\r\nContent-Type: text/plain' : '') +
          '\r\n\r\n',
        'latin1',
      ),
      octets(value),
      Buffer.from('\r\n'),
    ]),
  );
  return Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
}

/** The kind of a multipart body with a malformed part: never to be answered with a success. */
export const MALFORMED_MULTIPART = 'malformed multipart';

/** Parts busboy skipped silently (the audit's F6), each before the generated fields. */
const malformedParts = (boundary: string) => ({
  noHeaders: `--${boundary}\r\n\r\nvalue\r\n`,
  noName: `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n`,
  brokenHeader: `--${boundary}\r\nContent-Disposition form-data; name="a"\r\n\r\nvalue\r\n`,
  noBlankLine: `--${boundary}\r\nContent-Disposition: form-data; name="a"\r\nvalue\r\n`,
});

/** Multipart bodies with a boundary: well-formed, with files, or broken in one place. */
function multipartOf(fields: fc.Arbitrary<[string, Text][]>): fc.Arbitrary<BodyPlan> {
  return fc
    .tuple(
      fields,
      fc.constantFrom(
        'wellFormed',
        'file',
        'unterminated',
        'otherBoundary',
        'noHeaders',
        'noName',
        'brokenHeader',
        'noBlankLine',
        'manyParts',
      ),
    )
    .map(([entries, variant]) => {
      const boundary = 'fuzzBoundary7MA4YWxk';
      const contentType = `multipart/form-data; boundary=${boundary}`;
      switch (variant) {
        case 'file':
          return {
            kind: 'multipart with file parts',
            contentType,
            body: multipartBody(boundary, entries, true),
          };
        case 'unterminated':
          return {
            kind: 'multipart without its closing boundary',
            contentType,
            body: multipartBody(boundary, entries, false).subarray(0, -(boundary.length + 6)),
          };
        case 'otherBoundary':
          return {
            kind: 'multipart with another boundary',
            contentType,
            body: multipartBody('somethingElse', entries, false),
          };
        case 'noHeaders':
        case 'noName':
        case 'brokenHeader':
        case 'noBlankLine':
          // Issue 54, F6: a part busboy skips, beside the fields; the request must not succeed.
          return {
            kind: `${MALFORMED_MULTIPART}: ${variant}`,
            contentType,
            body: Buffer.concat([
              Buffer.from(malformedParts(boundary)[variant], 'latin1'),
              multipartBody(boundary, entries, false),
            ]),
          };
        case 'manyParts':
          return {
            kind: 'multipart with 1,500 parts',
            contentType,
            body: multipartBody(
              boundary,
              Array.from({ length: 1_500 }, (_, index): [string, Text] => [`f${index}`, text('1')]),
              false,
            ),
          };
        default:
          return { kind: 'multipart', contentType, body: multipartBody(boundary, entries, false) };
      }
    });
}

/** A JSON value where any value could be: hostile in type, bounds or content. */
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -0,
    -1,
    2 ** 31,
    2 ** 53 + 2,
    1e308,
    -1e308,
    5e-324,
    1.5,
    '',
    '1',
    '0x10',
    'NaN',
    'Infinity',
    '1e999',
    [],
    {},
    [null],
    { length: 1 },
  ),
  anyText.map((value) => ('raw' in value ? value.raw : value.bytes.toString('utf8'))),
  fc.oneof(
    fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => `a${String.fromCharCode(code)}`),
    fc.constantFrom(101, 5_000, 70_000).map((length) => 'x'.repeat(length)),
  ),
);

/** A property left out of a generated object (null is a value to send). */
const ABSENT = Symbol('absent');

/** JSON values of `schema`: the shape it describes, with any node replaced by a hostile value. */
function jsonOf(schema: Schema, known: Known, name = '', depth = 0): fc.Arbitrary<unknown> {
  const shaped: fc.Arbitrary<unknown> = (() => {
    if (schema.type === 'object' || schema.properties) {
      const required = new Set(schema.required ?? []);
      const entries = Object.entries(schema.properties ?? {});
      return fc
        .tuple(
          ...entries.map(([key, property]) =>
            // A required property is nearly always there, an optional one now and then.
            fc.oneof(
              { weight: required.has(key) ? 1 : 24, arbitrary: fc.constant(ABSENT) },
              { weight: required.has(key) ? 24 : 8, arbitrary: jsonOf(property, known, key, depth + 1) },
            ),
          ),
        )
        .map((values) =>
          Object.fromEntries(
            entries.flatMap(([key], index) => (values[index] === ABSENT ? [] : [[key, values[index]]])),
          ),
        );
    }
    if (schema.type === 'array') {
      const items = schema.items ?? {};
      return fc.oneof(
        {
          weight: 20,
          arbitrary: fc.array(jsonOf(items, known, name, depth + 1), { minLength: 1, maxLength: 3 }),
        },
        { weight: 1, arbitrary: fc.constant([]) },
        // Over the largest array the schema allows.
        ...(schema.maxItems !== undefined && schema.maxItems <= 5_000
          ? [
              {
                weight: 1,
                arbitrary: jsonOf(items, known, name, depth + 1).map((item) =>
                  Array.from({ length: schema.maxItems! + 1 }, () => item),
                ),
              },
            ]
          : []),
      );
    }
    const valid = validValues(schema, known[name] ?? []);
    // The texts a URL value could be (edges, notations, dates, control characters), as JSON strings.
    const texts = valueOf(schema, known[name] ?? [], 1).map((value) =>
      'raw' in value ? value.raw : value.bytes.toString('utf8'),
    );
    if (schema.type === 'integer' || schema.type === 'number') {
      return fc.oneof(
        { weight: 10, arbitrary: valid.map(Number) },
        { weight: 1, arbitrary: texts.map(Number) },
      );
    }
    if (schema.type === 'boolean') return valid.map((value) => value === 'true');
    // A date-time is one field of many in a body, and the one most often mistyped: hostile more often.
    return fc.oneof(
      { weight: schema.format === 'date-time' ? 8 : 30, arbitrary: valid },
      { weight: 1, arbitrary: texts },
    );
  })();
  // Rare at each node: a batch has dozens of them, and most batches should still be valid.
  return fc.oneof(
    { weight: depth === 0 ? 12 : 60, arbitrary: shaped },
    { weight: 1, arbitrary: hostileJson },
  );
}

/** JSON text of `schema` as a client would send it. */
function jsonBodyOf(schema: Schema, known: Known): fc.Arbitrary<BodyPlan> {
  return jsonOf(schema, known).map((value) => ({
    kind: 'json',
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify(value) ?? 'null'),
  }));
}

/** Over the body limit, in the route's own format. */
const oversized: fc.Arbitrary<BodyPlan> = fc.constantFrom(
  {
    kind: 'oversized form',
    contentType: 'application/x-www-form-urlencoded',
    body: Buffer.from(`apiKey=${'a'.repeat(OVER_BODY_LIMIT)}`),
  },
  {
    kind: 'oversized json',
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify({ positions: 'a'.repeat(OVER_BODY_LIMIT) })),
  },
  {
    kind: 'oversized multipart',
    contentType: 'multipart/form-data; boundary=b',
    body: Buffer.from(
      `--b\r\nContent-Disposition: form-data; name="apiKey"\r\n\r\n${'a'.repeat(OVER_BODY_LIMIT)}\r\n--b--\r\n`,
    ),
  },
);

/**
 * Bodies for an operation: for one that takes a body, mostly its documented media types with
 * shaped-but-hostile content; for every operation, now and then a body of the wrong type, a broken
 * one, a deeply nested one or one over the limit.
 */
export function bodyOf(
  content: Readonly<Record<string, Schema>> | undefined,
  known: Known,
): fc.Arbitrary<BodyPlan> {
  const declared = content ?? {};
  const formSchema = declared['application/x-www-form-urlencoded'] ?? declared['multipart/form-data'];
  const fields = formFieldsOf(formSchema, known);
  const jsonSchema = declared['application/json'];
  const takesBody = Object.keys(declared).length > 0;

  const options: fc.WeightedArbitrary<BodyPlan>[] = [
    { weight: takesBody ? 1 : 30, arbitrary: fc.constant({ kind: 'none' }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...CONTENT_TYPES), fc.constantFrom(...RAW_BODIES))
        .map(([contentType, body]) => ({
          kind: 'malformed',
          contentType,
          body: Buffer.from(body),
        })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...CONTENT_TYPES), fields).map(([contentType, entries]) => ({
        kind: 'form under another content type',
        contentType,
        body: urlencodedBody(entries),
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...RAW_BODIES)
        .map((body) => ({ kind: 'no content type', body: Buffer.from(body) })),
    },
    {
      weight: 1,
      arbitrary: deeplyNested.map((body) => ({
        kind: 'deeply nested json',
        contentType: 'application/json',
        body: Buffer.from(body),
      })),
    },
    { weight: 1, arbitrary: multipartOf(fields) },
    { weight: takesBody ? 1 : 0, arbitrary: oversized },
  ];
  if (declared['application/x-www-form-urlencoded']) {
    options.push({
      weight: 8,
      arbitrary: fields.map((entries) => ({
        kind: 'form',
        contentType: 'application/x-www-form-urlencoded',
        body: urlencodedBody(entries),
      })),
    });
  }
  if (declared['multipart/form-data']) options.push({ weight: 3, arbitrary: multipartOf(fields) });
  if (jsonSchema) options.push({ weight: 10, arbitrary: jsonBodyOf(jsonSchema, known) });
  return fc.oneof(...options.filter((option) => option.weight > 0));
}
