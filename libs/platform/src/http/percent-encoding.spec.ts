import { parseUrlencodedStrictly, undecodableField } from './percent-encoding';

function parsed(body: string | Buffer): { error: Error | null; value?: unknown } {
  let result: { error: Error | null; value?: unknown } = { error: null };
  parseUrlencodedStrictly(undefined, Buffer.from(body), (error, value) => (result = { error, value }));
  return result;
}

describe('percent-encoding', () => {
  it.each([
    ['name=%ED%A0%80', 'name'],
    ['name=%FF%FE', 'name'],
    ['a=1&name=%C3', 'name'],
    ['a=1&name=%ZZ', 'name'],
    ['speed=100%', 'speed'],
    ['%FF=1', '%FF (its name)'],
  ])('names the field of %s whose escapes do not decode to UTF-8 text', (query, field) => {
    expect(undecodableField(query)).toBe(field);
  });

  it.each(['name=Truck%201', 'name=%E2%82%AC+van&x=', 'a=%F0%9F%9A%9A', 'plain=text&&b', ''])(
    'accepts %j',
    (query) => {
      expect(undecodableField(query)).toBeUndefined();
    },
  );

  it('parses a good form as before: repeated names as arrays, + as a space, no field limit', () => {
    const many = Array.from({ length: 1_500 }, (_, index) => `f${index}=1`).join('&');
    const { error, value } = parsed(`name=Truck+%E2%82%AC&tag=a&tag=b&${many}`);
    expect(error).toBeNull();
    expect(value).toMatchObject({ name: 'Truck €', tag: ['a', 'b'], f1499: '1' });
  });

  it('refuses a form with an undecodable value as the client’s mistake (a 4xx), naming the field', () => {
    const { error } = parsed('url=https%3A%2F%2Fexample.com&secret=%ED%A0%80');
    expect(error).toMatchObject({ statusCode: 400 });
    expect(error?.message).toMatch(/^secret: not valid percent-encoded UTF-8/);
  });

  it('refuses a form whose raw bytes are no UTF-8 (they would read as U+FFFD)', () => {
    const { error } = parsed(Buffer.concat([Buffer.from('name=Truck'), Buffer.from([0xff, 0xfe])]));
    expect(error).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/^request body is not valid UTF-8/),
    });
  });
});
