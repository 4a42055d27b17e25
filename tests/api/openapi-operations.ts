/**
 * The operations of an OpenAPI 3 document, with every `$ref` resolved, and a check of a JSON value
 * against one of its schemas. Small on purpose: `@apidevtools/swagger-parser` is an ES module this
 * Jest setup cannot load, and the document uses only local references (`#/components/...`) and a
 * handful of schema keywords, all of which {@link schemaProblems} knows (an unknown one fails loudly).
 */

export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  default?: unknown;
  pattern?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  parameters: Parameter[];
  /** Media type → schema of the request body, when the operation takes one. */
  requestBody?: { required: boolean; content: Record<string, Schema> };
  /** Status → schema of the JSON body (undefined when the response has none). */
  responses: Record<string, Schema | undefined>;
  /** Needs a bearer token. */
  authenticated: boolean;
}

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** `value` with every local `$ref` replaced by what it points at (the document has no cycles). */
function resolve(document: Json, value: unknown, seen: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((item) => resolve(document, item, seen));
  if (value === null || typeof value !== 'object') return value;
  const ref = (value as Json).$ref;
  if (typeof ref === 'string') {
    if (!ref.startsWith('#/')) throw new Error(`only local references are supported: ${ref}`);
    if (seen.includes(ref)) throw new Error(`cyclic reference ${[...seen, ref].join(' → ')}`);
    const target = ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, part) => (node as Json | undefined)?.[part], document);
    if (target === undefined) throw new Error(`unresolved reference ${ref}`);
    return resolve(document, target, [...seen, ref]);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(document, item, seen)]));
}

/** Every operation of `document`, in document order. */
export function operationsOf(document: Readonly<Json>): Operation[] {
  const resolved = resolve(document as Json, document) as Json;
  const globalSecurity = (resolved.security as unknown[] | undefined) ?? [];
  return Object.entries(resolved.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const operation = item[method] as Json;
      const parameters = [
        ...((item.parameters as Parameter[] | undefined) ?? []),
        ...((operation.parameters as Parameter[] | undefined) ?? []),
      ].map((parameter) => ({
        ...parameter,
        required: Boolean(parameter.required),
        schema: parameter.schema ?? {},
      }));
      const body = operation.requestBody as
        { required?: boolean; content: Record<string, { schema?: Schema }> } | undefined;
      const responses = operation.responses as Record<
        string,
        { content?: Record<string, { schema?: Schema }> }
      >;
      return {
        method: method.toUpperCase(),
        path,
        operationId: String(operation.operationId ?? `${method} ${path}`),
        parameters,
        requestBody: body && {
          required: Boolean(body.required),
          content: Object.fromEntries(
            Object.entries(body.content).map(([type, media]) => [type, media.schema ?? {}]),
          ),
        },
        responses: Object.fromEntries(
          Object.entries(responses).map(([status, response]) => [
            status,
            response.content?.['application/json']?.schema,
          ]),
        ),
        authenticated: ((operation.security as unknown[] | undefined) ?? globalSecurity).length > 0,
      };
    }),
  );
}

/** The component schema `name`, references resolved. */
export function schemaNamed(document: Readonly<Json>, name: string): Schema {
  return resolve(document as Json, { $ref: `#/components/schemas/${name}` }) as Schema;
}

const KNOWN_KEYWORDS = new Set([
  'type',
  'nullable',
  'enum',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'oneOf',
  'anyOf',
  'allOf',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'format',
  'pattern',
  // Annotations: they constrain nothing.
  'description',
  'example',
  'examples',
  'default',
  'title',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * Where `value` breaks `schema` (OpenAPI 3.0's dialect of JSON Schema), as `<json path>: <problem>`
 * lines; empty when it conforms. Properties a schema does not list are allowed, as in JSON Schema,
 * unless it says `additionalProperties: false`.
 */
export function schemaProblems(schema: Schema, value: unknown, at = '$'): string[] {
  const unknown = Object.keys(schema).filter((key) => !KNOWN_KEYWORDS.has(key));
  if (unknown.length)
    throw new Error(`${at}: schema keyword(s) this check does not know: ${unknown.join(', ')}`);
  if (value === null) return schema.nullable || schema.enum?.includes(null) ? [] : [`${at}: is null`];

  const problems: string[] = [];
  const actual = typeOf(value);
  if (schema.type) {
    const fits =
      schema.type === 'number' ? actual === 'number' || actual === 'integer' : actual === schema.type;
    if (!fits) return [`${at}: is ${actual}, not ${schema.type}`];
  }
  if (schema.enum && !schema.enum.includes(value)) {
    problems.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum)
      problems.push(`${at}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum)
      problems.push(`${at}: above ${schema.maximum}`);
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) problems.push(`${at}: too short`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) problems.push(`${at}: too long`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
      problems.push(`${at}: does not match ${schema.pattern}`);
    }
    if (schema.format === 'date-time' && !DATE_TIME.test(value)) problems.push(`${at}: not a date-time`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      problems.push(`${at}: too few items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      problems.push(`${at}: too many items`);
    if (schema.items)
      value.forEach((item, index) =>
        problems.push(...schemaProblems(schema.items!, item, `${at}[${index}]`)),
      );
  }
  if (actual === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in record)) problems.push(`${at}: missing ${key}`);
    for (const [key, item] of Object.entries(record)) {
      const property = schema.properties?.[key];
      if (property) problems.push(...schemaProblems(property, item, `${at}.${key}`));
      else if (schema.additionalProperties === false) problems.push(`${at}: unexpected ${key}`);
      else if (typeof schema.additionalProperties === 'object') {
        problems.push(...schemaProblems(schema.additionalProperties, item, `${at}.${key}`));
      }
    }
  }
  for (const part of schema.allOf ?? []) problems.push(...schemaProblems(part, value, at));
  if (schema.oneOf) {
    const matching = schema.oneOf.filter((option) => schemaProblems(option, value, at).length === 0).length;
    if (matching !== 1)
      problems.push(`${at}: matches ${matching} of the ${schema.oneOf.length} oneOf schemas, not 1`);
  }
  if (schema.anyOf && !schema.anyOf.some((option) => schemaProblems(option, value, at).length === 0)) {
    problems.push(`${at}: matches none of the anyOf schemas`);
  }
  return problems;
}
