import { isConnectionFailure, retryOnConnectionFailure } from './connection-retry';

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('isConnectionFailure', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a name not resolved', withCode('ENOTFOUND')],
    ['a lookup that timed out', withCode('EAI_AGAIN')],
    ["node-postgres's connect timeout", new Error('Connection terminated due to connection timeout')],
    ['a connection closed under a query', new Error('Connection terminated unexpectedly')],
    ['SQLSTATE 08006 (connection failure)', withCode('08006')],
    ['SQLSTATE 57P03 (cannot connect now: starting up)', withCode('57P03')],
  ])('is true for %s', (_, error) => {
    expect(isConnectionFailure(error)).toBe(true);
  });

  it.each([
    ['a failed statement (SQLSTATE 42P01, undefined table)', withCode('42P01')],
    ['a refused password (28P01)', withCode('28P01')],
    ['a unique violation (23505)', withCode('23505')],
    ['a bug', new TypeError('cannot read properties of undefined')],
    ['something thrown that is not an error', 'Connection terminated'],
  ])('is false for %s', (_, error) => {
    expect(isConnectionFailure(error)).toBe(false);
  });
});

describe('retryOnConnectionFailure', () => {
  it('runs the work again while PostgreSQL cannot be reached, and returns what it then returns', async () => {
    const work = jest
      .fn<Promise<string>, []>()
      .mockRejectedValueOnce(withCode('ECONNREFUSED'))
      .mockRejectedValueOnce(new Error('Connection terminated due to connection timeout'))
      .mockResolvedValueOnce('migrated');
    await expect(retryOnConnectionFailure(work, 10_000)).resolves.toBe('migrated');
    expect(work).toHaveBeenCalledTimes(3);
  });

  it('throws any other failure at once', async () => {
    const failed = withCode('42P01', 'relation "x" does not exist');
    const work = jest.fn<Promise<string>, []>().mockRejectedValue(failed);
    await expect(retryOnConnectionFailure(work, 10_000)).rejects.toBe(failed);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('throws the last connection failure once the wait has passed', async () => {
    const refused = withCode('ECONNREFUSED');
    const work = jest.fn<Promise<string>, []>().mockRejectedValue(refused);
    await expect(retryOnConnectionFailure(work, 100)).rejects.toBe(refused);
    expect(work).toHaveBeenCalledTimes(1);
  });
});
