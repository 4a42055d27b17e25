import { CallHandler, ExecutionContext } from '@nestjs/common';
import { of } from 'rxjs';
import { QueryOverBody } from './query-or-body';

/** The request after the interceptor ran (or the error it threw). */
function intercepted(request: { query: object; body?: unknown }): { query: object; handled: boolean } {
  let handled = false;
  const context = { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
  const next: CallHandler = { handle: () => ((handled = true), of(undefined)) };
  new QueryOverBody().intercept(context, next);
  return { query: request.query, handled };
}

describe('QueryOverBody', () => {
  it('merges body fields into the query, the query winning where both give a field', () => {
    const body = Object.assign(Object.create(null) as object, { isLock: 'false', name: 'Van' });
    expect(intercepted({ query: { isLock: 'true' }, body })).toEqual({
      query: { isLock: 'true', name: 'Van' },
      handled: true,
    });
  });

  it('keeps the query alone without a body', () => {
    expect(intercepted({ query: { isOn: 'true' } })).toEqual({ query: { isOn: 'true' }, handled: true });
    expect(intercepted({ query: { isOn: 'true' }, body: null }).query).toEqual({ isOn: 'true' });
  });

  it.each([[['isLock', true]], ['isLock=true'], [7]])(
    'refuses a body that is no object of fields (%j) with 422',
    (body) => {
      expect(() => intercepted({ query: {}, body })).toThrow(
        expect.objectContaining({ status: 422, description: expect.stringMatching(/^body: /) }),
      );
    },
  );
});
