import { parseOsmAndFields, parseOsmAndJson } from './osmand-report';
import { fields, IMEI, parseErrorOf } from './test/osmand-report-helpers';

describe('parseOsmAndFields', () => {
  it('reads the minimal report: no timestamp, no readings', () => {
    const report = parseOsmAndFields(fields());
    expect(report).toEqual({ deviceId: IMEI, fixTime: undefined, lat: 52.5, lng: 13.4, readings: {} });
    expect(Object.keys(report.readings)).toEqual([]);
  });

  it.each([
    ['Unix seconds', '1700000000', '2023-11-14T22:13:20.000Z'],
    ['fractional Unix seconds', '1700000000.25', '2023-11-14T22:13:20.250Z'],
    ['Unix milliseconds', '1700000000123', '2023-11-14T22:13:20.123Z'],
    ['ISO 8601 with Z', '2024-03-01T10:00:00Z', '2024-03-01T10:00:00.000Z'],
    ['ISO 8601 with fraction and Z', '2024-03-01T10:00:00.456789Z', '2024-03-01T10:00:00.456Z'],
    ['ISO 8601 with an offset', '2024-03-01T12:30:00+02:30', '2024-03-01T10:00:00.000Z'],
    ['ISO 8601 with a negative compact offset', '2024-03-01T05:00:00-0500', '2024-03-01T10:00:00.000Z'],
    ['ISO 8601 without offset (UTC)', '2024-03-01T10:00:00', '2024-03-01T10:00:00.000Z'],
    ['yyyy-MM-dd HH:mm:ss (UTC)', '2024-03-01 10:00:00', '2024-03-01T10:00:00.000Z'],
    ['a leap day', '2024-02-29 23:59:59', '2024-02-29T23:59:59.000Z'],
    [
      'ISO 8601 with an hours-only offset, without seconds',
      '2024-03-01T11:00+01',
      '2024-03-01T10:00:00.000Z',
    ],
    ['a year below 100, taken literally', '0099-12-31T00:00:00z', '0099-12-31T00:00:00.000Z'],
  ])('reads a timestamp as %s', (_form, timestamp, expected) => {
    expect(parseOsmAndFields(fields({ timestamp })).fixTime?.toISOString()).toBe(expected);
  });

  it('converts knots to km/h', () => {
    expect(parseOsmAndFields(fields({ speed: '10' })).readings.speedKmh).toBeCloseTo(18.52, 9);
    expect(parseOsmAndFields(fields({ speed: '0' })).readings).toEqual({ speedKmh: 0 });
  });

  it.each([
    ['90', 90],
    ['359.4', 359],
    ['359.6', 0],
    ['360', 0],
    ['725', 5],
    ['-10', 350],
  ])('normalizes bearing %s to course %d', (bearing, course) => {
    expect(parseOsmAndFields(fields({ bearing })).readings).toEqual({ course });
  });

  it('takes heading as bearing, bearing first when both are sent', () => {
    expect(parseOsmAndFields(fields({ heading: '45' })).readings).toEqual({ course: 45 });
    expect(parseOsmAndFields(fields({ bearing: '10', heading: '45' })).readings).toEqual({ course: 10 });
  });

  it('reads the location=lat,lon form', () => {
    const report = parseOsmAndFields({ id: IMEI, location: '-33.8688, 151.2093' });
    expect([report.lat, report.lng]).toEqual([-33.8688, 151.2093]);
  });

  it('prefers lat and lon over location', () => {
    const report = parseOsmAndFields(fields({ location: '1,2' }));
    expect([report.lat, report.lng]).toEqual([52.5, 13.4]);
  });

  it('accepts deviceid for id', () => {
    expect(parseOsmAndFields({ deviceid: '12345', lat: '0', lon: '0' }).deviceId).toBe('12345');
  });

  it('reads booleans as true/false/1/0 in any case', () => {
    const report = parseOsmAndFields(
      fields({ ignition: 'TRUE', motion: '0', lock: '1', engine: 'False', charge: 'true' }),
    );
    expect(report.readings).toEqual({
      ignition: true,
      motion: false,
      doorLocked: true,
      engineEnabled: false,
      charging: true,
    });
  });

  it('reads dtcs trimmed, upper-cased, without empties', () => {
    expect(parseOsmAndFields(fields({ dtcs: 'p0300, ,c1234 ,' })).readings).toEqual({
      dtcCodes: ['P0300', 'C1234'],
    });
    expect(parseOsmAndFields(fields({ dtcs: ' , ' })).readings).toEqual({});
  });

  it('reads every reading in the platform units', () => {
    const report = parseOsmAndFields(
      fields({
        altitude: '-12.5',
        accuracy: '4.2',
        hdop: '0.9',
        batt: '88',
        odometer: '100500',
        hours: '1234.5',
        power: '12.6',
        fuel: '61.5',
        fuelvolume: '40.2',
        sat: '9',
        rssi: '4',
        driver: 'D-17',
        chargerpower: '11',
        chargingenergy: '7.25',
        range: '310',
        rpm: '2150',
        coolantTemp: '-4.5',
      }),
    );
    expect(report.readings).toEqual({
      altitudeM: -12.5,
      accuracyM: 4.2,
      hdop: 0.9,
      batteryLevel: 88,
      odometerM: 100500,
      engineHours: 1234.5,
      powerV: 12.6,
      fuelLevel: 61.5,
      fuelVolumeL: 40.2,
      satellites: 9,
      signal: 4,
      driver: 'D-17',
      chargerPowerKw: 11,
      chargingEnergyKwh: 7.25,
      batteryRangeKm: 310,
      rpm: 2150,
      coolantTempC: -4.5,
    });
  });

  it.each([
    [{ rpm: '0' }, { rpm: 0 }],
    [{ RPM: '6500.5' }, { rpm: 6500.5 }],
    [{ coolanttemp: '105' }, { coolantTempC: 105 }],
    [{ COOLANTTEMP: '250' }, { coolantTempC: 250 }],
    [{ coolantTemp: '-60' }, { coolantTempC: -60 }],
  ])('reads the engine readings of %j, at their bounds and in any case', (given, readings) => {
    expect(parseOsmAndFields(fields(given)).readings).toEqual(readings);
  });

  it('matches parameter names in any case', () => {
    const report = parseOsmAndFields({
      ID: IMEI,
      Lat: '1.5',
      LON: '2.5',
      Speed: '1',
      IGNITION: '1',
      DTCs: 'p1',
    });
    expect(report).toEqual({
      deviceId: IMEI,
      fixTime: undefined,
      lat: 1.5,
      lng: 2.5,
      readings: { speedKmh: 1.852, ignition: true, dtcCodes: ['P1'] },
    });
  });

  it('uses the last value of a repeated parameter', () => {
    const report = parseOsmAndFields(fields({ id: ['111', '222'], batt: ['10', '20', '30'] }));
    expect([report.deviceId, report.readings.batteryLevel]).toEqual(['222', 30]);
  });

  it('treats empty values as absent and ignores unknown parameters', () => {
    const report = parseOsmAndFields(
      fields({ timestamp: '', speed: '', batt: ['50', ''], valid: 'true', x: '?' }),
    );
    expect(report.fixTime).toBeUndefined();
    expect(report.readings).toEqual({});
    expect(Object.keys(report.readings)).toEqual([]);
  });

  it.each([
    ['id', {}, 'id: is required', { id: undefined }],
    ['id', {}, 'id: "' + 'x'.repeat(65) + '" is longer than 64 characters', { id: 'x'.repeat(65) }],
    ['lat', {}, 'lat: is required', { lat: '' }],
    ['lon', {}, 'lon: is required', { lon: undefined }],
    ['lat', {}, 'lat: "91" is outside -90..90', { lat: '91' }],
    ['lon', {}, 'lon: "-180.5" is outside -180..180', { lon: '-180.5' }],
    ['lat', {}, 'lat: "0x10" is not a number', { lat: '0x10' }],
    [
      'location',
      { lat: undefined, lon: undefined },
      'location: "52.5" is not "lat,lon"',
      { location: '52.5' },
    ],
    [
      'location',
      { lat: undefined, lon: undefined },
      'location: "95" is outside -90..90',
      { location: '95,1' },
    ],
    [
      'timestamp',
      {},
      'timestamp: "2024-13-01 10:00:00" is not a valid date and time',
      { timestamp: '2024-13-01 10:00:00' },
    ],
    [
      'timestamp',
      {},
      'timestamp: "2024-02-30T10:00:00Z" is not a valid date and time',
      { timestamp: '2024-02-30T10:00:00Z' },
    ],
    [
      'timestamp',
      {},
      'timestamp: "2023-02-29 10:00:00" is not a valid date and time',
      { timestamp: '2023-02-29 10:00:00' },
    ],
    [
      'timestamp',
      {},
      'timestamp: "2024-03-01T24:00:00Z" is not a valid date and time',
      { timestamp: '2024-03-01T24:00:00Z' },
    ],
    [
      'timestamp',
      {},
      'timestamp: "2024-03-01T10:00:00+24:00" is not a valid date and time',
      { timestamp: '2024-03-01T10:00:00+24:00' },
    ],
    ['timestamp', {}, 'timestamp: "1e400" is not a finite number', { timestamp: '1e400' }],
    ['timestamp', {}, 'timestamp: "-5" is below 0', { timestamp: '-5' }],
    [
      'timestamp',
      {},
      'timestamp: "Infinity" is not a timestamp (Unix seconds or milliseconds, or ISO 8601)',
      { timestamp: 'Infinity' },
    ],
    ['timestamp', {}, 'timestamp: "9e15" is beyond the representable dates', { timestamp: '9e15' }],
    ['speed', {}, 'speed: "fast" is not a number', { speed: 'fast' }],
    ['speed', {}, 'speed: "-1" is below 0', { speed: '-1' }],
    ['bearing', {}, 'bearing: "east" is not a number', { bearing: 'east' }],
    ['heading', {}, 'heading: "NaN" is not a number', { heading: 'NaN' }],
    ['altitude', {}, 'altitude: "high" is not a number', { altitude: 'high' }],
    ['accuracy', {}, 'accuracy: "-3" is below 0', { accuracy: '-3' }],
    ['hdop', {}, 'hdop: "low" is not a number', { hdop: 'low' }],
    ['batt', {}, 'batt: "101" is outside 0..100', { batt: '101' }],
    ['charge', {}, 'charge: "yes" is not a boolean (true, false, 1 or 0)', { charge: 'yes' }],
    ['ignition', {}, 'ignition: "on" is not a boolean (true, false, 1 or 0)', { ignition: 'on' }],
    ['motion', {}, 'motion: "2" is not a boolean (true, false, 1 or 0)', { motion: '2' }],
    ['lock', {}, 'lock: "locked" is not a boolean (true, false, 1 or 0)', { lock: 'locked' }],
    ['engine', {}, 'engine: "off" is not a boolean (true, false, 1 or 0)', { engine: 'off' }],
    ['odometer', {}, 'odometer: "-1" is below 0', { odometer: '-1' }],
    ['hours', {}, 'hours: "1:30" is not a number', { hours: '1:30' }],
    ['power', {}, 'power: "12V" is not a number', { power: '12V' }],
    ['fuel', {}, 'fuel: "-0.5" is outside 0..100', { fuel: '-0.5' }],
    ['fuelvolume', {}, 'fuelvolume: "-2" is below 0', { fuelvolume: '-2' }],
    ['sat', {}, 'sat: "7.5" is not an integer', { sat: '7.5' }],
    ['rssi', {}, 'rssi: "6" is outside 0..5', { rssi: '6' }],
    [
      'driver',
      {},
      'driver: "' + 'd'.repeat(79) + '… is longer than 128 characters',
      { driver: 'd'.repeat(129) },
    ],
    ['chargerpower', {}, 'chargerpower: "11kW" is not a number', { chargerpower: '11kW' }],
    ['chargingenergy', {}, 'chargingenergy: "n/a" is not a number', { chargingenergy: 'n/a' }],
    ['range', {}, 'range: "-10" is below 0', { range: '-10' }],
    ['rpm', {}, 'rpm: "-1" is below 0', { rpm: '-1' }],
    ['rpm', {}, 'rpm: "3k" is not a number', { rpm: '3k' }],
    ['rpm', {}, 'rpm: "1e400" is not a finite number', { rpm: '1e400' }],
    ['coolantTemp', {}, 'coolantTemp: "250.1" is outside -60..250', { coolantTemp: '250.1' }],
    ['coolantTemp', {}, 'coolantTemp: "-61" is outside -60..250', { coolanttemp: '-61' }],
    ['coolantTemp', {}, 'coolantTemp: "hot" is not a number', { COOLANTTEMP: 'hot' }],
  ])('names %s when it is wrong (%#)', (field, base, message, override) => {
    const error = parseErrorOf(() => parseOsmAndFields({ ...fields(base), ...override }));
    expect([error.field, error.message]).toEqual([field, message]);
  });
});

describe('parseOsmAndJson', () => {
  /** A location as Traccar Client 9 sends it, with overrides merged in. */
  function body(location: Record<string, unknown> = {}, coords: Record<string, unknown> = {}) {
    return {
      device_id: IMEI,
      location: {
        timestamp: '2024-03-01T10:00:00.000Z',
        coords: {
          latitude: 52.5,
          longitude: 13.4,
          speed: 12.5,
          heading: 90,
          altitude: 40,
          accuracy: 5,
          ...coords,
        },
        is_moving: true,
        odometer: 1523.4,
        battery: { level: 0.85, is_charging: false },
        ...location,
      },
    };
  }

  it('reads the Traccar Client location', () => {
    expect(parseOsmAndJson(body())).toEqual({
      deviceId: IMEI,
      fixTime: new Date('2024-03-01T10:00:00.000Z'),
      lat: 52.5,
      lng: 13.4,
      readings: {
        speedKmh: 45,
        course: 90,
        altitudeM: 40,
        accuracyM: 5,
        motion: true,
        odometerM: 1523.4,
        batteryLevel: 85,
        charging: false,
      },
    });
  });

  it('rounds the battery percentage to one decimal and normalizes the heading', () => {
    const report = parseOsmAndJson(body({ battery: { level: 0.12345 } }, { heading: 360.2 }));
    expect([report.readings.batteryLevel, report.readings.course]).toEqual([12.3, 0]);
  });

  it('treats the -1 sentinels of speed, heading and battery level as absent', () => {
    const report = parseOsmAndJson(
      body({ battery: { level: -1, is_charging: true } }, { speed: -1, heading: -1 }),
    );
    expect(report.readings).toEqual({
      altitudeM: 40,
      accuracyM: 5,
      motion: true,
      odometerM: 1523.4,
      charging: true,
    });
    expect(Object.keys(report.readings)).not.toContain('speedKmh');
  });

  it('reads only coordinates when the location has nothing else', () => {
    const report = parseOsmAndJson({
      device_id: IMEI,
      location: { coords: { latitude: '-1.5', longitude: 2 } },
    });
    expect(report).toEqual({ deviceId: IMEI, fixTime: undefined, lat: -1.5, lng: 2, readings: {} });
  });

  it('maps extras by the query field rules, JSON-typed or as strings', () => {
    const report = parseOsmAndJson(
      body({
        extras: {
          Ignition: true,
          fuel: '61.5',
          power: 12.6,
          engine: 0,
          lock: 'TRUE',
          sat: 9,
          dtcs: 'p0300,p0171',
          driver: 42,
          batt: 50,
          note: { free: 'form' },
          lat: 'ignored',
        },
      }),
    );
    expect(report.readings).toEqual({
      speedKmh: 45,
      course: 90,
      altitudeM: 40,
      accuracyM: 5,
      // The location's own battery level wins over extras.batt.
      batteryLevel: 85,
      charging: false,
      ignition: true,
      motion: true,
      doorLocked: true,
      engineEnabled: false,
      odometerM: 1523.4,
      powerV: 12.6,
      fuelLevel: 61.5,
      satellites: 9,
      driver: '42',
      dtcCodes: ['P0300', 'P0171'],
    });
    expect(report.lat).toBe(52.5);
  });

  it('reads the engine readings from extras, JSON-typed or as strings', () => {
    const report = parseOsmAndJson(body({ extras: { rpm: 4200, coolantTemp: '97.5' } }));
    expect([report.readings.rpm, report.readings.coolantTempC]).toEqual([4200, 97.5]);
  });

  it('falls back to extras when the location lacks a reading', () => {
    const report = parseOsmAndJson(
      body({ battery: { level: -1 }, extras: { batt: 50, speed: 10 } }, { speed: -1 }),
    );
    expect([report.readings.batteryLevel, report.readings.speedKmh]).toEqual([50, 18.52]);
  });

  it('reads a numeric timestamp as in the query form', () => {
    expect(parseOsmAndJson(body({ timestamp: 1700000000 })).fixTime?.toISOString()).toBe(
      '2023-11-14T22:13:20.000Z',
    );
  });

  it.each([
    ['body', [] as unknown, 'body: [] is not a JSON object'],
    ['body', 'id=1' as unknown, 'body: "id=1" is not a JSON object'],
    ['body', null as unknown, 'body: null is not a JSON object'],
    ['device_id', { location: body().location }, 'device_id: is required'],
    ['device_id', { ...body(), device_id: 860000000000001 }, 'device_id: 860000000000001 is not a string'],
    ['location', { device_id: IMEI }, 'location: is required'],
    [
      'location',
      { device_id: IMEI, location: [body().location] },
      'location: is an array; send one location object per request',
    ],
    ['location', { device_id: IMEI, location: 'here' }, 'location: "here" is not an object'],
    ['location.coords', body({ coords: undefined }), 'location.coords: is required'],
    ['location.coords.latitude', body({}, { latitude: undefined }), 'location.coords.latitude: is required'],
    [
      'location.coords.latitude',
      body({}, { latitude: 'north' }),
      'location.coords.latitude: "north" is not a number',
    ],
    [
      'location.coords.longitude',
      body({}, { longitude: 200 }),
      'location.coords.longitude: 200 is outside -180..180',
    ],
    [
      'location.coords.latitude',
      body({}, { latitude: [1] }),
      'location.coords.latitude: [1] is not a string, number or boolean',
    ],
    ['location.coords.speed', body({}, { speed: 'fast' }), 'location.coords.speed: "fast" is not a number'],
    ['location.coords.accuracy', body({}, { accuracy: -5 }), 'location.coords.accuracy: -5 is below 0'],
    [
      'location.timestamp',
      body({ timestamp: '2024-02-30T10:00:00Z' }),
      'location.timestamp: "2024-02-30T10:00:00Z" is not a valid date and time',
    ],
    [
      'location.is_moving',
      body({ is_moving: 'maybe' }),
      'location.is_moving: "maybe" is not a boolean (true, false, 1 or 0)',
    ],
    ['location.odometer', body({ odometer: -3 }), 'location.odometer: -3 is below 0'],
    ['location.battery', body({ battery: 0.5 }), 'location.battery: 0.5 is not an object'],
    [
      'location.battery.level',
      body({ battery: { level: 85 } }),
      'location.battery.level: 85 is outside 0..1',
    ],
    ['location.extras', body({ extras: 'fuel=5' }), 'location.extras: "fuel=5" is not an object'],
    ['location.extras.fuel', body({ extras: { fuel: 120 } }), 'location.extras.fuel: 120 is outside 0..100'],
    ['location.extras.rpm', body({ extras: { rpm: -5 } }), 'location.extras.rpm: -5 is below 0'],
    [
      'location.extras.coolantTemp',
      body({ extras: { CoolantTemp: 300 } }),
      'location.extras.coolantTemp: 300 is outside -60..250',
    ],
    [
      'location.extras.coolantTemp',
      body({ extras: { coolantTemp: [90] } }),
      'location.extras.coolantTemp: [90] is not a string, number or boolean',
    ],
    [
      'location.extras.ignition',
      body({ extras: { ignition: 'on' } }),
      'location.extras.ignition: "on" is not a boolean (true, false, 1 or 0)',
    ],
    [
      'location.extras.rssi',
      body({ extras: { rssi: [3] } }),
      'location.extras.rssi: [3] is not a string, number or boolean',
    ],
  ])('names %s when it is wrong (%#)', (field, input, message) => {
    const error = parseErrorOf(() => parseOsmAndJson(input));
    expect([error.field, error.message]).toEqual([field, message]);
  });
});
