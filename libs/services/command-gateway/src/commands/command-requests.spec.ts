import { CommandGatewayException } from '../command-gateway.exception';
import { idempotencyKeyOf, odometer, rename, required } from './command-requests';

const problemOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof CommandGatewayException) return `${error.status} ${error.description}`;
    throw error;
  }
  return 'no problem';
};

describe('command inputs', () => {
  it('takes a given value, false included, and names a missing field', () => {
    expect(required('isLock', false)).toBe(false);
    expect(required('isLock', true)).toBe(true);
    expect(problemOf(() => required('isLock', undefined))).toBe(
      '422 isLock: is required, as a query parameter or in the body',
    );
  });

  it('takes odometer readings from 0 to 10,000,000 km', () => {
    expect(odometer(0)).toEqual({ type: 'odometer', odometerKm: 0 });
    expect(odometer(10_000_000)).toEqual({ type: 'odometer', odometerKm: 10_000_000 });
    expect(problemOf(() => odometer(-0.1))).toBe('422 odometer: must be between 0 and 10000000 km, not -0.1');
    expect(problemOf(() => odometer(10_000_000.5))).toContain('odometer: must be between');
  });

  it('trims names and counts what is left', () => {
    expect(rename('  Van 7 ')).toEqual({ type: 'name', name: 'Van 7' });
    expect(rename('é'.repeat(100))).toEqual({ type: 'name', name: 'é'.repeat(100) });
    expect(problemOf(() => rename(' \t '))).toBe('422 name: must not be empty or only spaces');
    expect(problemOf(() => rename('x'.repeat(101)))).toBe(
      '422 name: must be at most 100 characters once trimmed, not 101',
    );
  });

  it('takes an Idempotency-Key of 1 to 255 printable ASCII characters', () => {
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
    expect(idempotencyKeyOf('order-7f3a')).toBe('order-7f3a');
    expect(idempotencyKeyOf('k'.repeat(255))).toBe('k'.repeat(255));
    expect(problemOf(() => idempotencyKeyOf('k'.repeat(256)))).toContain('at most 255');
    expect(problemOf(() => idempotencyKeyOf(''))).toContain('printable ASCII');
    expect(problemOf(() => idempotencyKeyOf('  '))).toContain('printable ASCII');
    expect(problemOf(() => idempotencyKeyOf('key\u0000'))).toContain('printable ASCII');
    expect(problemOf(() => idempotencyKeyOf(['a', 'b']))).toBe('422 Idempotency-Key: give the header once');
  });
});
