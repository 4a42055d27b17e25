import { Gt06Error, TeltonikaError } from '@fleet/trackers';
import { OsmAndParseError } from '../osmand/osmand-report';
import { RejectedReport } from '../positions/position-intake.service';
import { failureOutcome, intakeOutcome, loginOutcome } from './frame-outcome';

describe('archived frame outcomes', () => {
  it('count what the intake published and what it refused, by reason', () => {
    const outcome = (accepted: number, refused: Record<string, number>) => ({
      accepted,
      refused,
      published: [],
      continued: [],
      reanchored: [],
      vehicleIds: [],
    });
    expect(intakeOutcome(outcome(3, {}), 3)).toBe('accepted 3/3');
    expect(intakeOutcome(outcome(9, { impossible_speed: 1 }), 10)).toBe(
      'accepted 9/10, refused impossible_speed 1',
    );
    expect(intakeOutcome(outcome(0, { zero_position: 1, duplicate: 2 }), 3)).toBe(
      'accepted 0/3, refused duplicate 2, refused zero_position 1',
    );
  });

  it('name a login and why one was refused', () => {
    expect(loginOutcome({ accepted: true, device: { vehicleId: 1, imei: '1', profile: {} as never, vouched: undefined } })).toBe(
      'login',
    );
    expect(loginOutcome({ accepted: false, reason: 'unknown_device' })).toBe('login refused: unknown_device');
  });

  it('tell a CRC failure, bytes the decoders refuse, a report refused whole and anything else apart', () => {
    expect(failureOutcome(new TeltonikaError('crc', 'CRC mismatch'))).toBe('crc');
    expect(failureOutcome(new Gt06Error('crc', 'CRC mismatch'))).toBe('crc');
    expect(failureOutcome(new TeltonikaError('count-mismatch', 'record counts 3 and 2 differ'))).toBe(
      'malformed: record counts 3 and 2 differ',
    );
    expect(failureOutcome(new Gt06Error('bad-start', 'GT06 frame starts with 47 45'))).toBe(
      'malformed: GT06 frame starts with 47 45',
    );
    expect(failureOutcome(new OsmAndParseError('lat', 'lat: is required'))).toBe(
      'malformed: lat: is required',
    );
    expect(failureOutcome(new RejectedReport('unknown-device', 0, 'deviceId', 'unknown device "1"'))).toBe(
      'refused: unknown_device',
    );
    expect(failureOutcome(new RejectedReport('future', 0, 'timestamp', 'too far'))).toBe('refused: future');
    expect(failureOutcome(new Error('broker unavailable'))).toBe('error: broker unavailable');
  });
});
