import { serializeError } from './logger';

describe('serializeError', () => {
  it('keeps the statement and the message, and drops the values a database error carries', () => {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      detail: 'Key (imei)=(356938035643809) already exists.',
    });
    const error = Object.assign(new Error('duplicate key value violates unique constraint'), {
      query: 'INSERT INTO query.vehicles (imei, name) VALUES ($1, $2)',
      parameters: ['356938035643809', 'Van 1'],
      driverError,
    });
    const serialized = serializeError(error);
    expect(serialized).toMatchObject({
      message: 'duplicate key value violates unique constraint',
      query: 'INSERT INTO query.vehicles (imei, name) VALUES ($1, $2)',
      driverError: { code: '23505' },
    });
    expect(JSON.stringify(serialized)).not.toMatch(/356938035643809|Van 1/);
  });
});
