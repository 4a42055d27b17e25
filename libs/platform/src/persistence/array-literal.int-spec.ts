import { createTestDatabase, TestDatabase } from '@fleet/testing';
import fc from 'fast-check';
import { Client } from 'pg';
import { arrayLiteral } from './array-literal';

/**
 * The literals are read back by PostgreSQL itself: whatever the texts hold (quotes, backslashes,
 * commas, braces, spaces, the word NULL, nothing at all), the array it parses is the one written.
 */
describe('arrayLiteral (real PostgreSQL)', () => {
  let database: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await database.drop();
  });

  const parsed = async <T>(literal: string, type: string): Promise<T[]> =>
    (await client.query(`SELECT $1::${type}[] AS a`, [literal])).rows[0].a;

  // PostgreSQL's text holds any character but NUL.
  const text = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((value) => !value.includes('\u0000'));
  const tricky = fc.constantFrom(
    '',
    'NULL',
    'null',
    ' NuLl ',
    '"',
    '\\',
    '{}',
    'a,b',
    ' lead',
    'trail ',
    '\t',
    '\n',
  );

  it('writes texts and nulls that PostgreSQL reads back as they were', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.oneof(text, tricky), { nil: null }), { maxLength: 20 }),
        async (values) => {
          expect(await parsed<string | null>(arrayLiteral(values), 'text')).toEqual(values);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes numbers, booleans and instants bare, as their types read them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null })),
        async (values) => {
          const back = await parsed<number | null>(arrayLiteral(values), 'float8');
          // float8 keeps no negative zero's sign through text; every other value comes back exactly.
          expect(back.map((value) => (Object.is(value, -0) ? 0 : value))).toEqual(
            values.map((value) => (Object.is(value, -0) ? 0 : value)),
          );
        },
      ),
      { numRuns: 200 },
    );
    expect(await parsed<boolean | null>(arrayLiteral([true, null, false]), 'bool')).toEqual([
      true,
      null,
      false,
    ]);
    const instants = ['2026-11-28T18:22:02.123Z', '2026-11-28T19:22:02+01:00'];
    const read = await parsed<Date>(arrayLiteral(instants), 'timestamptz');
    expect(read.map((at) => at.toISOString())).toEqual([
      '2026-11-28T18:22:02.123Z',
      '2026-11-28T18:22:02.000Z',
    ]);
    expect(arrayLiteral(instants)).toBe(`{${instants.join(',')}}`);
  });

  it('refuses numbers no column holds instead of writing NaN or Infinity', () => {
    expect(() => arrayLiteral([1, Number.NaN])).toThrow(RangeError);
    expect(() => arrayLiteral([Number.POSITIVE_INFINITY])).toThrow(RangeError);
  });
});
