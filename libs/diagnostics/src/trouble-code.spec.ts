import { decodeTroubleCode } from './trouble-code';

describe('decodeTroubleCode', () => {
  it.each([
    ['P0300', 'Powertrain', 'Generic', 'Ignition system or misfire'],
    ['P0420', 'Powertrain', 'Generic', 'Auxiliary emission controls'],
    ['P0171', 'Powertrain', 'Generic', 'Fuel and air metering'],
    ['P0087', 'Powertrain', 'Generic', 'Fuel and air metering and auxiliary emission controls'],
    ['P0500', 'Powertrain', 'Generic', 'Vehicle speed, idle control and auxiliary inputs'],
    ['P0606', 'Powertrain', 'Generic', 'Computer and output circuits'],
    ['P0700', 'Powertrain', 'Generic', 'Transmission'],
    ['P0A80', 'Powertrain', 'Generic', 'Hybrid and electric propulsion'],
    ['P0FFF', 'Powertrain', 'Generic', 'ISO/SAE reserved'],
    ['P2463', 'Powertrain', 'Generic', 'Auxiliary emission controls'],
    ['P2500', 'Powertrain', 'Generic', 'Auxiliary inputs'],
    ['P2A00', 'Powertrain', 'Generic', 'Fuel and air metering and auxiliary emission controls'],
    ['P2B00', 'Powertrain', 'Generic', 'General powertrain'],
    ['P1234', 'Powertrain', 'Manufacturer', 'Fuel and air metering, injector circuit'],
    ['P1300', 'Powertrain', 'Manufacturer', 'Ignition system or misfire'],
    ['P3000', 'Powertrain', 'Manufacturer', 'Manufacturer-defined'],
    ['P33FF', 'Powertrain', 'Manufacturer', 'Manufacturer-defined'],
    ['P3400', 'Powertrain', 'Generic', 'Cylinder deactivation'],
    ['P3500', 'Powertrain', 'Generic', 'ISO/SAE reserved'],
    ['C0035', 'Chassis', 'Generic', 'Brakes, traction, steering and suspension'],
    ['C1234', 'Chassis', 'Manufacturer', 'Brakes, traction, steering and suspension'],
    ['C2100', 'Chassis', 'Manufacturer', 'Brakes, traction, steering and suspension'],
    ['C3000', 'Chassis', 'Generic', 'Brakes, traction, steering and suspension'],
    ['B0001', 'Body', 'Generic', 'Restraints (airbags, seat belts)'],
    ['B0228', 'Body', 'Generic', 'Body electrics and comfort'],
    ['B1001', 'Body', 'Manufacturer', 'Body electrics and comfort'],
    ['B2000', 'Body', 'Manufacturer', 'Body electrics and comfort'],
    ['U0001', 'Network', 'Generic', 'Network electrical (communication bus)'],
    ['U0100', 'Network', 'Generic', 'Network communication (lost communication)'],
    ['U0200', 'Network', 'Generic', 'Network communication (lost communication)'],
    ['U0300', 'Network', 'Generic', 'Network software (incompatibility)'],
    ['U0401', 'Network', 'Generic', 'Network data (invalid data received)'],
    ['U0600', 'Network', 'Generic', 'Network (other)'],
    ['U1000', 'Network', 'Manufacturer', 'Manufacturer-defined'],
    ['U2100', 'Network', 'Manufacturer', 'Manufacturer-defined'],
    ['U3000', 'Network', 'Generic', 'Control modules (ISO/SAE range)'],
  ])('%s: %s, %s, %s', (code, system, codeType, subsystem) => {
    expect(decodeTroubleCode(code)).toEqual({ code, system, codeType, subsystem });
  });

  it.each([
    ['lower case', 'p0300'],
    ['mixed case hex', 'P0a80'],
    ['a second character above 3', 'P4300'],
    ['an unknown system letter', 'X0300'],
    ['too short', 'P030'],
    ['too long', 'P03000'],
    ['surrounding space', ' P0300'],
    ['a non-hex digit', 'P030G'],
    ['empty', ''],
  ])('is undefined for %s (%j)', (_why, code) => {
    expect(decodeTroubleCode(code)).toBeUndefined();
  });

  it('is undefined for a value that is not a string', () => {
    expect(decodeTroubleCode(300 as unknown as string)).toBeUndefined();
    expect(decodeTroubleCode(undefined as unknown as string)).toBeUndefined();
  });
});
