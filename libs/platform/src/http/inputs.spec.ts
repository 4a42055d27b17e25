import { plainToInstance } from 'class-transformer';
import { IsNumber, IsOptional, validateSync } from 'class-validator';
import { BooleanInput, DateTimeInput, IdInput, inputProblem, MAX_NESTING, NumberInput } from './inputs';

class Sample {
  @IsOptional()
  @NumberInput()
  @IsNumber()
  value?: number | string;

  @IsOptional()
  @IdInput()
  id?: number | string;
}

class Flag {
  @IsOptional()
  @BooleanInput()
  flag?: boolean | string;
}

const read = (plain: Record<string, unknown>) => {
  const instance = plainToInstance(Sample, plain, { exposeUnsetFields: false });
  return { instance, errors: validateSync(instance).map((error) => error.property) };
};

describe('NumberInput and IdInput', () => {
  it.each([
    ['12', 12],
    ['-1.5', -1.5],
    ['+3', 3],
    ['.5', 0.5],
    ['1e3', 1000],
  ])('reads the decimal %p as %p', (text, number) => {
    expect(read({ value: text })).toEqual({ instance: { value: number }, errors: [] });
  });

  it.each(['0x10', ' 1', '1 ', '1_000', 'Infinity', 'NaN', '1e', '--1'])(
    'leaves %p unparsed, so it fails',
    (text) => {
      expect(read({ value: text }).errors).toEqual(['value']);
    },
  );

  it('reads an empty value as missing', () => {
    expect(read({ value: '' })).toEqual({ instance: {}, errors: [] });
  });

  it('keeps ids within PostgreSQL integer', () => {
    expect(read({ id: '2147483647' }).errors).toEqual([]);
    expect(read({ id: '2147483648' }).errors).toEqual(['id']);
    expect(read({ id: '0' }).errors).toEqual(['id']);
    expect(read({ id: '1.5' }).errors).toEqual(['id']);
  });
});

class Range {
  @DateTimeInput()
  from!: string;
}

describe('DateTimeInput', () => {
  const errors = (from: unknown) =>
    validateSync(plainToInstance(Range, { from })).flatMap((error) => Object.values(error.constraints ?? {}));

  it.each(['2026-04-28T10:00:00Z', '2026-04-28T10:00:00.123+02:00', '2026-04-28T10:00', '2026-04-28'])(
    'accepts %p',
    (text) => {
      expect(errors(text)).toEqual([]);
    },
  );

  // Each is valid ISO 8601 (class-validator's isISO8601 accepts it) that Date cannot read, or misreads.
  it.each([
    '20240101T000000Z',
    '2024-W01-1',
    '2024-100',
    '2024-01-01T10Z',
    '2024-01-01T00:00:00,5Z',
    '20240101',
  ])('refuses %p, which Date would read as Invalid Date or as another day', (text) => {
    expect(errors(text)).toEqual(['must be an ISO 8601 date-time such as 2026-04-28T10:00:00Z']);
  });

  it.each([[''], ['2024-02-30T00:00:00Z'], [20240101], [['2024-01-01']]])('refuses %p', (value) => {
    expect(errors(value)).toHaveLength(1);
  });
});

describe('inputProblem', () => {
  it('names the first field holding a control character, at any depth', () => {
    expect(inputProblem({ a: 'fine', b: { c: ['ok', 'x\u0000y'] }, d: '\u0001' })).toBe(
      'b.c[1]: must not contain control characters',
    );
    expect(inputProblem('\u007f', 'imei')).toBe('imei: must not contain control characters');
    expect(inputProblem({ tab: 'a\tb' })).toBe('tab: must not contain control characters');
    expect(inputProblem({ name: 'x\ud800' })).toBe('name: must not contain unpaired UTF-16 surrogates');
  });

  it('passes text without one, and values that are not text', () => {
    expect(
      inputProblem({ a: 'Zürich – 東京', n: 5, z: null, t: true, list: [[1], { b: 'ok' }] }),
    ).toBeUndefined();
  });

  it(`refuses nesting deeper than ${MAX_NESTING} levels, however deep, without overflowing the stack`, () => {
    const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;
    expect(inputProblem(nested(MAX_NESTING))).toBeUndefined();
    expect(inputProblem(nested(MAX_NESTING + 1))).toMatch(
      /^(\[0\])+: must not be nested more than 32 levels deep$/,
    );
    expect(inputProblem({ a: nested(200_000) })).toMatch(/^a(\[0\])*: must not be nested more than/);
  });
});

describe('BooleanInput', () => {
  const readFlag = (value: unknown) => {
    const instance = plainToInstance(Flag, { flag: value });
    return { flag: instance.flag, errors: validateSync(instance).map((error) => error.property) };
  };

  it.each([
    ['true', true],
    ['FALSE', false],
    ['True', true],
    [true, true],
    [false, false],
  ])('reads %p as %p', (value, flag) => {
    expect(readFlag(value)).toEqual({ flag, errors: [] });
  });

  it.each(['1', '0', 'yes', ' true', '', 5])('refuses %p', (value) => {
    expect(readFlag(value).errors).toEqual(['flag']);
  });
});
