import { describeTroubleCode } from './describe-trouble-code';

describe('describeTroubleCode', () => {
  it('P0300: the catalogue text, misfire group, high', () => {
    const described = describeTroubleCode('P0300')!;
    expect(described).toMatchObject({
      code: 'P0300',
      description: 'Random/Multiple Cylinder Misfire Detected',
      severity: 'High',
      detectionLocation: {
        system: 'Powertrain',
        subsystem: 'Ignition system or misfire',
        codeType: 'Generic',
      },
    });
    expect(described.analysis).toBe(
      'P0300 reports: Random/Multiple Cylinder Misfire Detected. It is a generic powertrain code in the ' +
        '"ignition system or misfire" group. Codes in this group mostly concern ignition and combustion: a ' +
        'cylinder that misfires wastes fuel, and the unburnt fuel can overheat the catalytic converter. ' +
        'Severity high: have the vehicle inspected within a few days, and spare it long or heavy trips until then.',
    );
  });

  it('P0420: catalyst efficiency, emission controls, medium', () => {
    expect(describeTroubleCode('P0420')).toMatchObject({
      description: 'Catalyst System Efficiency Below Threshold (Bank 1)',
      severity: 'Medium',
      detectionLocation: {
        system: 'Powertrain',
        subsystem: 'Auxiliary emission controls',
        codeType: 'Generic',
      },
    });
  });

  it('C1234: a manufacturer chassis code still gets its system, subsystem and a fallback text', () => {
    const described = describeTroubleCode('C1234')!;
    expect(described).toMatchObject({
      description: 'Manufacturer-specific chassis code (brakes, traction, steering and suspension)',
      severity: 'Medium',
      detectionLocation: {
        system: 'Chassis',
        subsystem: 'Brakes, traction, steering and suspension',
        codeType: 'Manufacturer',
      },
    });
    expect(described.analysis).toContain("Its exact meaning is the manufacturer's");
  });

  it('U0100: lost communication with the engine computer, high', () => {
    expect(describeTroubleCode('U0100')).toMatchObject({
      description: 'Lost Communication with ECM/PCM "A"',
      severity: 'High',
      detectionLocation: {
        system: 'Network',
        subsystem: 'Network communication (lost communication)',
        codeType: 'Generic',
      },
    });
  });

  it('B0001: an airbag deployment control, restraints, high', () => {
    expect(describeTroubleCode('B0001')).toMatchObject({
      description: 'Driver Frontal Stage 1 Deployment Control',
      severity: 'High',
      detectionLocation: {
        system: 'Body',
        subsystem: 'Restraints (airbags, seat belts)',
        codeType: 'Generic',
      },
    });
  });

  it('P1xxx unknown to the catalogue: described by its digits', () => {
    const described = describeTroubleCode('P1171')!;
    expect(described).toMatchObject({
      code: 'P1171',
      description: 'Manufacturer-specific powertrain code (fuel and air metering)',
      severity: 'Medium',
      detectionLocation: {
        system: 'Powertrain',
        subsystem: 'Fuel and air metering',
        codeType: 'Manufacturer',
      },
    });
    expect(described.analysis).toMatch(
      /^P1171 is a manufacturer-specific powertrain code in the "fuel and air metering" group\./,
    );
  });

  it('a generic code the catalogue lacks gets a generic fallback', () => {
    expect(describeTroubleCode('P3500')).toMatchObject({
      description: 'Generic powertrain code (ISO/SAE reserved)',
      detectionLocation: { codeType: 'Generic', subsystem: 'ISO/SAE reserved' },
    });
    expect(describeTroubleCode('P3500')!.analysis).toContain('not in the catalogue');
  });

  it('points circuit codes to wiring first, and critical ones to stopping', () => {
    expect(describeTroubleCode('C0035')!.analysis).toContain('wiring, a connector or a fuse');
    expect(describeTroubleCode('P0300')!.analysis).not.toContain('wiring');
    expect(describeTroubleCode('P0217')!.analysis).toMatch(/Severity critical: stop as soon as it is safe/);
  });

  it.each(['p0300', 'P4300', 'P030', 'P03000', '', 'Z0000', 'P0300 '])('is undefined for %j', (code) => {
    expect(describeTroubleCode(code)).toBeUndefined();
  });
});
