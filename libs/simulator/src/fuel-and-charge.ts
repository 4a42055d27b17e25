import { Random } from './random';

const TANK_L = 80;
/** Traction battery: 75 kWh, 11 kW charger, about 20 kWh/100 km. */
const EV_BATTERY_KWH = 75;
export const EV_CHARGER_KW = 11;
const EV_CHARGE_PERCENT_PER_HOUR = (EV_CHARGER_KW / EV_BATTERY_KWH) * 100;
const EV_PERCENT_PER_KM = (0.2 / EV_BATTERY_KWH) * 100;
const EV_RANGE_KM_PER_PERCENT = 3.2;

/**
 * What a vehicle has left to drive on: the fuel in a combustion vehicle's tank, and the battery level
 * a tracker reports (a combustion vehicle's tracker battery, an electric vehicle's traction battery).
 */
export class FuelAndCharge {
  private fuelL: number;
  private level: number;

  /** Starts part full, both levels drawn from `random`. */
  constructor(
    private readonly electric: boolean,
    random: Random,
  ) {
    this.level = random.between(electric ? 45 : 60, electric ? 95 : 100);
    this.fuelL = TANK_L * random.between(0.3, 0.95);
  }

  /** Percent: the tracker's battery, or the traction battery of an electric vehicle. */
  get batteryLevel(): number {
    return this.level;
  }

  /** Percent of the tank (combustion vehicles). */
  get fuelPercent(): number {
    return (this.fuelL / TANK_L) * 100;
  }

  /** The range the traction battery's charge gives (electric vehicles). */
  get rangeKm(): number {
    return this.level * EV_RANGE_KM_PER_PERCENT;
  }

  /** An electric vehicle not yet full: it charges at a stop with the ignition off. */
  get canCharge(): boolean {
    return this.electric && this.level < 99.5;
  }

  /** Low on fuel (or charge): the next route goes to the depot. */
  get low(): boolean {
    return this.electric ? this.level < 20 : this.fuelL < TANK_L * 0.2;
  }

  /** At the depot, a tank below 30 % is filled. */
  refuelAtDepot(): void {
    if (this.fuelL < TANK_L * 0.3) this.fuelL = TANK_L * 0.95;
  }

  /** Drove `travelM` metres, on an arterial road or a street (where a van uses more). */
  drove(travelM: number, arterial: boolean): void {
    if (this.electric) {
      this.level = Math.max(0, this.level - (travelM / 1000) * EV_PERCENT_PER_KM);
    } else {
      this.fuelL -= (travelM / 100_000) * (arterial ? 8 : 11);
    }
  }

  /**
   * `seconds` passed with the ignition on (idling uses fuel, the alternator charges the tracker's
   * battery) or off (the tracker's battery drains; an electric vehicle `charging` charges).
   */
  update(seconds: number, ignition: boolean, charging: boolean): void {
    const hours = seconds / 3600;
    if (ignition) {
      if (!this.electric) {
        this.fuelL -= 0.9 * hours;
        this.level = Math.min(100, this.level + 60 * hours);
      }
    } else if (charging) {
      this.level = Math.min(100, this.level + EV_CHARGE_PERCENT_PER_HOUR * hours);
    } else if (!this.electric) {
      this.level = Math.max(0, this.level - 1.5 * hours);
    }
    this.fuelL = Math.max(0, this.fuelL);
  }
}
