import { decodeEvent, encodeEvent } from '../messaging/codec';
import { Topics } from '../topics';
import { CommandRequestedV1 } from './command-requested.v1';

const base = {
  commandId: '0b4f6e4a-5d39-4c1e-9a61-3f0d2b7c8e11',
  vehicleId: 7,
  companyId: 3,
  requestedAt: '2026-11-24T08:00:00.000Z',
  expiresAt: '2026-11-24T08:05:00.000Z',
};

describe('command events', () => {
  it.each([
    { type: 'doorLock', lock: true },
    { type: 'ignition', on: false },
    { type: 'locate' },
    { type: 'odometer', odometerKm: 123456.7 },
    { type: 'name', name: 'Van 7' },
  ])('a %o request round-trips with only its own parameter', (parameters) => {
    const command = { ...base, ...parameters } as CommandRequestedV1;
    expect(decodeEvent(Topics.commandsRequested, encodeEvent(Topics.commandsRequested, command))).toEqual(
      command,
    );
  });

  it.each([
    [{ type: 'doorLock' }, /lock/],
    [{ type: 'ignition', on: 'yes' }, /on/],
    [{ type: 'odometer', odometerKm: -1 }, /odometerKm/],
    [{ type: 'name', name: '' }, /name/],
    [{ type: 'reboot' }, /type/],
  ])('refuses %o: each type needs its parameter, in bounds', (parameters, problem) => {
    expect(() => encodeEvent(Topics.commandsRequested, { ...base, ...parameters } as never)).toThrow(problem);
  });

  it('takes results of the three kinds and refuses others', () => {
    const result = {
      commandId: base.commandId,
      vehicleId: 7,
      status: 'acknowledged',
      at: base.requestedAt,
    } as const;
    expect(decodeEvent(Topics.commandResults, encodeEvent(Topics.commandResults, result))).toEqual(result);
    expect(() => encodeEvent(Topics.commandResults, { ...result, status: 'expired' } as never)).toThrow(
      /status/,
    );
  });
});
