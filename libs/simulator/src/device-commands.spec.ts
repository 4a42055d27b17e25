import { commandsOfAnswer } from './device-commands';

describe('commandsOfAnswer', () => {
  it('reads the commands of a 200 answer, in order, with their parameters', () => {
    const body = JSON.stringify({
      commands: [
        { id: 'a', type: 'doorLock', lock: true },
        { id: 'b', type: 'ignition', on: false },
        { id: 'c', type: 'locate' },
      ],
    });
    expect(commandsOfAnswer(body)).toEqual([
      { id: 'a', type: 'doorLock', lock: true },
      { id: 'b', type: 'ignition', on: false },
      { id: 'c', type: 'locate' },
    ]);
  });

  it.each([
    ['an empty body (nothing pending)', ''],
    ['a body that is not JSON', 'OK'],
    ['JSON without commands', '{"status":"ok"}'],
    ['JSON null', 'null'],
    ['commands that are not a list', '{"commands":{"id":"a"}}'],
  ])('finds none in %s', (_what, body) => {
    expect(commandsOfAnswer(body)).toEqual([]);
  });

  it('answers what it cannot carry out as unsupported, and skips what it could not even name', () => {
    const body = JSON.stringify({
      commands: [
        { id: 'a', type: 'honk' },
        { id: 'b', type: 'doorLock' },
        { id: 'c', type: 'ignition', on: 'off' },
        { type: 'locate' },
        { id: '', type: 'locate' },
        'locate',
      ],
    });
    expect(commandsOfAnswer(body)).toEqual([
      { id: 'a', type: 'unsupported' },
      { id: 'b', type: 'unsupported' },
      { id: 'c', type: 'unsupported' },
    ]);
  });
});
