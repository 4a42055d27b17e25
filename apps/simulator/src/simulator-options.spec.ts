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
      ingest: { osmand: 'http://localhost:5056', teltonika: { host: '127.0.0.2', port: 6027 } },
      vehicles: [
        { imei: '356938030000001', tracker: 'teltonika' },
        { imei: '356938030000002', tracker: 'gt06' },
        { imei: '356938030000003', deviceSecret: 'q8ZP0yq3r2m1h5W3vUx9aTnK7cB4dE6f' },
      ],
    }),
  );

  it('takes the vehicles and the port from the demo credentials by default', () => {
    expect(readSimulatorOptions(['--credentials', credentials])).toEqual({
      url: 'http://localhost:5056',
      endpoints: {
        osmand: 'http://localhost:5056',
        teltonika: { host: '127.0.0.2', port: 6027 },
        gt06: { host: 'localhost', port: 5023 },
      },
      trackers: { '356938030000001': 'teltonika', '356938030000002': 'gt06', '356938030000003': 'osmand' },
      imeis: ['356938030000001', '356938030000002', '356938030000003'],
      intervalSeconds: 5,
      durationSeconds: undefined,
      fast: false,
      restHistoryDays: 0,
      secrets: { '356938030000003': 'q8ZP0yq3r2m1h5W3vUx9aTnK7cB4dE6f' },
      seed: 1,
      connections: 64,
    });
    expect(readSimulatorOptions(['--credentials', credentials, '--vehicles', '2']).imeis).toHaveLength(2);
  });

  it('sends every vehicle in one protocol when told, to the ports given', () => {
    const options = readSimulatorOptions([
      '--credentials',
      credentials,
      '--protocol',
      'gt06',
      '--gt06',
      '127.0.0.1:7023',
    ]);
    expect(new Set(Object.values(options.trackers))).toEqual(new Set(['gt06']));
    expect(options.endpoints.gt06).toEqual({ host: '127.0.0.1', port: 7023 });
    expect(() => readSimulatorOptions(['--credentials', credentials, '--protocol', 'nmea'])).toThrow(
      /--protocol must be one of osmand, teltonika, gt06/,
    );
    expect(() => readSimulatorOptions(['--credentials', credentials, '--teltonika', 'nohost'])).toThrow(
      /--teltonika must be HOST:PORT/,
    );
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
