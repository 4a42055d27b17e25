import { retryOnConnectionFailure } from './connection-retry';

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

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
