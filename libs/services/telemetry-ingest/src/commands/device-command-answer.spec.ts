import { commandsAnswerBody } from './device-command-answer';

describe('commandsAnswerBody', () => {
  it('writes each command with only the fields of its type, in the order given', () => {
    const body = commandsAnswerBody([
      { commandId: 'a', type: 'doorLock', lock: true },
      { commandId: 'b', type: 'ignition', on: false },
      { commandId: 'c', type: 'locate' },
      { commandId: 'd', type: 'doorLock', lock: false },
    ]);
    expect(body).toBe(
      '{"commands":[{"id":"a","type":"doorLock","lock":true},{"id":"b","type":"ignition","on":false},' +
        '{"id":"c","type":"locate"},{"id":"d","type":"doorLock","lock":false}]}',
    );
  });

  it('leaves out a parameter that does not belong to the type', () => {
    expect(
      JSON.parse(
        commandsAnswerBody([
          { commandId: 'a', type: 'locate', lock: true, on: true },
          { commandId: 'b', type: 'ignition', lock: true, on: true },
        ]),
      ),
    ).toEqual({
      commands: [
        { id: 'a', type: 'locate' },
        { id: 'b', type: 'ignition', on: true },
      ],
    });
  });
});
