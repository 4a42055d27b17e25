/**
 * What a vehicle is, dealt by its place in the fleet (see fleetTraits) so that any small fleet has one
 * of each: an electric van, a tracker with a loose power connector, a battery that weakens from day to
 * day, and a vehicle with engine trouble codes.
 */
export interface VehicleTraits {
  /** No fuel, engine speed or coolant; a traction battery that charges at stops. */
  electric: boolean;
  /** Now and then the tracker loses the vehicle's power for a few minutes (it reports 0 V). */
  loosePowerConnector: boolean;
  /**
   * The starter battery is wearing out: its resting voltage falls by WEAKENING_VOLTS_PER_DAY a day
   * (vehicle-battery.ts) and it dips deeper when cranking.
   */
  weakeningBattery: boolean;
  /**
   * Reports ENGINE_CODES while the ignition is on, the first of them until ENGINE_CODE_CLEARED_AFTER_S
   * (engine-codes.ts).
   */
  engineCodes: boolean;
}

export const NO_TRAITS: Readonly<VehicleTraits> = Object.freeze({
  electric: false,
  loosePowerConnector: false,
  weakeningBattery: false,
  engineCodes: false,
});

/**
 * The traits of the fleet's `index`-th vehicle (0-based): the 2nd, 7th, 12th... is electric; the 1st,
 * 11th... has the loose connector and the engine codes; the 3rd, 13th... the weakening battery. In the
 * demo tenant the 1st and 3rd are vehicles of the top company, so its insight routes show both.
 */
export function fleetTraits(index: number): VehicleTraits {
  return {
    electric: index % 5 === 1,
    loosePowerConnector: index % 10 === 0,
    weakeningBattery: index % 10 === 2,
    engineCodes: index % 10 === 0,
  };
}
