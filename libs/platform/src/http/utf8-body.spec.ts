import Fastify from 'fastify';
import { parseJsonAsUtf8 } from './utf8-body';

describe('parseJsonAsUtf8', () => {
  const app = Fastify();
  const json = parseJsonAsUtf8(app.getDefaultJsonParser('error', 'error'));
  const parsed = (body: Buffer) => {
    let result: { error: Error | null; value?: unknown } = { error: null };
    json(undefined, body, (error, value) => (result = { error, value }));
    return result;
  };

  it('parses UTF-8 JSON as Fastify does', () => {
    expect(parsed(Buffer.from('{"name":"Lieferwagen €"}'))).toEqual({
      error: null,
      value: { name: 'Lieferwagen €' },
    });
    expect(parsed(Buffer.from('\ufeff{"a":1}')).value).toEqual({ a: 1 });
  });

  it.each([
    ['a lone 0xFF', [0xff]],
    ['a cut 2-byte character', [0xc3]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
  ])('refuses %s with the message that says so (not a length mismatch)', (_what, bytes) => {
    const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')]);
    expect(parsed(body).error).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/^request body is not valid UTF-8/),
    });
  });

  it('keeps Fastify’s own errors for empty, malformed and poisoned bodies', () => {
    expect(parsed(Buffer.alloc(0)).error).toMatchObject({ code: 'FST_ERR_CTP_EMPTY_JSON_BODY' });
    expect(parsed(Buffer.from('{')).error).toMatchObject({ code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
    expect(parsed(Buffer.from('{"__proto__":{"x":1}}')).error).toMatchObject({ statusCode: 400 });
  });
});
