import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSimulatorOptions } from './simulator-options';

describe('the simulator command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'simulator-options-'));
  const credentials = join(dir, 'demo-credentials.json');
  writeFileSync(
    credentials,
    JSON.stringify({
      ingest: { osmand: 'http://localhost:5056' },
      vehicles: [{ imei: '356938030000001' }, { imei: '356938030000002' }, { imei: '356938030000003' }],
    }),
  );

  it('takes the vehicles and the port from the demo credentials by default', () => {
    expect(readSimulatorOptions(['--credentials', credentials])).toEqual({
      url: 'http://localhost:5056',
      imeis: ['356938030000001', '356938030000002', '356938030000003'],
      intervalSeconds: 5,
      durationSeconds: undefined,
      fast: false,
      restHistoryDays: 0,
      seed: 1,
      connections: 64,
    });
    expect(readSimulatorOptions(['--credentials', credentials, '--vehicles', '2']).imeis).toHaveLength(2);
  });

  it('makes IMEIs from a prefix, padded to 15 digits', () => {
    const options = readSimulatorOptions([
      '--credentials',
      join(dir, 'absent.json'),
      '--imei-prefix',
      '86100',
      '--vehicles',
      '1000',
      '--url',
      'http://10.0.0.5:5055',
      '--fast',
      '--duration',
      '3600',
      '--interval',
      '10',
      '--rest-history-days',
      '14',
    ]);
    expect(options.imeis).toHaveLength(1000);
    expect(options.imeis[0]).toBe('861000000000001');
    expect(options.imeis[999]).toBe('861000000001000');
    expect(options).toMatchObject({
      url: 'http://10.0.0.5:5055',
      fast: true,
      durationSeconds: 3600,
      intervalSeconds: 10,
      restHistoryDays: 14,
    });
  });

  it.each([
    [['--interval', '0.5'], /--interval must be a number of at least 1/],
    [['--vehicles', 'many'], /--vehicles must be a number/],
    [['--vehicles', '2.5'], /whole number/],
    [['--fast'], /--fast needs --duration/],
    [['--rest-history-days=-1'], /--rest-history-days must be a number of at least 0/],
    [['--rest-history-days', '1.5'], /--rest-history-days must be a whole number/],
    [['--imei-prefix', '12ab'], /1 to 14 digits/],
    [['--imei-prefix', '12345678901234', '--vehicles', '20'], /room for 1 digits/],
    [['--credentials', '/nonexistent/file.json'], /no vehicles/],
  ])('refuses %j', (argv, message) => {
    const withCredentials = argv.includes('--credentials') ? argv : ['--credentials', credentials, ...argv];
    expect(() => readSimulatorOptions(withCredentials)).toThrow(message);
  });
});
