import { ApiException } from '@fleet/errors';
import { IsString } from 'class-validator';
import { createValidationPipe } from './validation';

class KeyRequest {
  @IsString()
  apiKey!: string;
}

/** The global pipe, as a route's `@Body()` argument meets it. */
const validateBody = (value: unknown, metatype: new () => object = KeyRequest) =>
  createValidationPipe().transform(value, { type: 'body', metatype });

describe('the validation pipe of every route', () => {
  const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

  it.each([
    ['a DTO body', KeyRequest],
    ['an untyped body (`@Body() body: object`)', Object],
  ])('refuses %s nested thousands deep with a 422, not a stack overflow', async (_what, metatype) => {
    const refused = await validateBody({ apiKey: nested(100_000) }, metatype).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ApiException);
    expect(refused).toMatchObject({
      status: 422,
      description: expect.stringMatching(/^apiKey(\[0\])*: must not be nested/),
    });
  });

  it('refuses a control character anywhere in the body, naming the field', async () => {
    await expect(validateBody({ apiKey: 'a\u0000b' })).rejects.toMatchObject({
      status: 422,
      description: 'apiKey: must not contain control characters',
    });
  });

  it('passes a well-formed body on to the DTO', async () => {
    await expect(validateBody({ apiKey: 'k' })).resolves.toEqual({ apiKey: 'k' });
  });
});
