import { openApiDocument } from '@fleet/contracts';
import { operationsOf, Schema, schemaProblems } from './openapi-operations';

describe('operationsOf', () => {
  const operations = operationsOf(openApiDocument);

  it('lists every operation of the committed document with its references resolved', () => {
    const paths = openApiDocument.paths as Record<string, Record<string, unknown>>;
    const count = Object.values(paths).reduce((sum, item) => sum + Object.keys(item).length, 0);
    expect(operations).toHaveLength(count);
    expect(JSON.stringify(operations)).not.toContain('$ref');
  });

  it('reads parameters, bodies, responses and security', () => {
    const nearest = operations.find((op) => op.path === '/v2/api/companies/{id}/vehicles/nearest')!;
    expect(nearest).toMatchObject({ method: 'GET', authenticated: true, requestBody: undefined });
    expect(nearest.parameters).toContainEqual({
      name: 'id',
      in: 'path',
      required: true,
      schema: { minimum: 1, type: 'integer' },
    });
    expect(nearest.responses['422']).toMatchObject({ required: expect.arrayContaining(['requestId']) });

    const token = operations.find((op) => op.path === '/v2/api/authentication/token/api-key')!;
    expect(token.authenticated).toBe(false);
    expect(Object.keys(token.requestBody!.content)).toEqual([
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
  });
});

describe('schemaProblems', () => {
  const apiError: Schema = {
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['VALIDATION_ERROR'] },
      code: { type: 'string' },
      requestId: { type: 'string' },
    },
    required: ['type', 'code', 'requestId'],
  };
  const suspended: Schema = {
    type: 'object',
    properties: { code: { type: 'string', enum: ['CompanySuspended'] }, message: { type: 'string' } },
    required: ['code', 'message'],
  };

  it('accepts a conforming value', () => {
    expect(schemaProblems(apiError, { type: 'VALIDATION_ERROR', code: 'X', requestId: 'r' })).toEqual([]);
  });

  it.each<[string, Schema, unknown, RegExp]>([
    ['a missing required property', apiError, { type: 'VALIDATION_ERROR', code: 'X' }, /missing requestId/],
    ['a value outside the enum', apiError, { type: 'OTHER', code: 'X', requestId: 'r' }, /\$\.type: "OTHER"/],
    ['a wrong type', apiError, 'text', /is string, not object/],
    ['null where not nullable', { type: 'string' }, null, /is null/],
    ['a fraction for an integer', { type: 'integer' }, 1.5, /is number, not integer/],
    ['a number out of range', { type: 'integer', minimum: 1 }, 0, /below 1/],
    ['a bad array item', { type: 'array', items: { type: 'integer' } }, [1, 'a'], /\$\[1\]: is string/],
    ['no matching oneOf', { oneOf: [apiError, suspended] }, { code: 'X' }, /matches 0 of the 2/],
    ['a non-date', { type: 'string', format: 'date-time' }, 'yesterday', /not a date-time/],
  ])('finds %s', (_what, schema, value, problem) => {
    expect(schemaProblems(schema, value).join('\n')).toMatch(problem);
  });

  it('takes null where the schema is nullable, and a oneOf with exactly one match', () => {
    expect(schemaProblems({ type: 'string', nullable: true }, null)).toEqual([]);
    expect(
      schemaProblems({ oneOf: [apiError, suspended] }, { code: 'CompanySuspended', message: 'm' }),
    ).toEqual([]);
  });

  it('refuses to judge with a keyword it does not know', () => {
    expect(() => schemaProblems({ not: {} } as Schema, 1)).toThrow(/does not know: not/);
  });
});
