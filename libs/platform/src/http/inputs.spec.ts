import { plainToInstance } from 'class-transformer';
import { IsNumber, IsOptional, validateSync } from 'class-validator';
import { fieldWithControlCharacter, IdInput, NumberInput } from './inputs';

class Sample {
  @IsOptional()
  @NumberInput()
  @IsNumber()
  value?: number | string;

  @IsOptional()
  @IdInput()
  id?: number | string;
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

describe('fieldWithControlCharacter', () => {
  it('names the first field holding a control character, at any depth', () => {
    expect(fieldWithControlCharacter({ a: 'fine', b: { c: ['ok', 'x\u0000y'] } })).toBe('b.c.1');
    expect(fieldWithControlCharacter('\u007f', 'imei')).toBe('imei');
    expect(fieldWithControlCharacter({ tab: 'a\tb' })).toBe('tab');
  });

  it('passes text without one, and values that are not text', () => {
    expect(fieldWithControlCharacter({ a: 'Zürich – 東京', n: 5, z: null, t: true })).toBeUndefined();
  });
});
