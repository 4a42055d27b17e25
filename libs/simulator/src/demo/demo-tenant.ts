import { CompanyStatus } from '@fleet/contracts';
import type { TrackerProtocol } from '../tracker-sender';

/**
 * The demo tenant, one definition for both modes: `npm start` (apps/fleet's demo-tenant.ts, through the
 * services in its process) and `npm run stack` (apps/stack's demo-seed.ts, through the admin CLI and the
 * public routes) create these companies and vehicles, then the geofences and alert configurations of
 * demo-alerts.ts; the simulator drives the vehicles in this order (fleetTraits).
 */
export interface DemoCompany {
  name: string;
  parent?: string;
  status?: CompanyStatus;
  timeZone: string;
}

// Top company first: `companies[0]` of the credentials file is the top of the tree.
export const DEMO_COMPANIES: readonly DemoCompany[] = [
  { name: 'Demo Logistics', timeZone: 'Europe/Berlin' },
  { name: 'Demo Logistics North', parent: 'Demo Logistics', timeZone: 'Europe/Berlin' },
  { name: 'Demo Logistics South', parent: 'Demo Logistics', timeZone: 'Europe/Madrid' },
  { name: 'Demo Couriers Harbour', parent: 'Demo Logistics North', timeZone: 'Europe/Berlin' },
  {
    name: 'Demo Suspended Freight',
    parent: 'Demo Logistics',
    status: 'suspended',
    timeZone: 'America/New_York',
  },
];

// A vehicle mapped to two companies shows the rule that a sub-company's vehicle is listed by its parent
// only when it is mapped to the parent too. The order is the simulator's (fleetTraits): the second and
// the seventh vehicle are electric, the first has the tracker with the loose power connector.
/**
 * The demo fleet. Most vehicles carry a Teltonika tracker wired to the vehicle, the courier a cheap GT06;
 * the two electric vehicles report through a phone app (OsmAnd), the only one of the three protocols
 * whose fields carry charging and range.
 */
export interface DemoVehicle {
  name: string;
  /** Its companies, by name. */
  companies: string[];
  tags: string[];
  /** The protocol its simulated tracker speaks. */
  tracker: TrackerProtocol;
}

export const DEMO_VEHICLES: readonly DemoVehicle[] = [
  { name: 'Van 01', companies: ['Demo Logistics'], tags: ['van'], tracker: 'teltonika' },
  { name: 'Van 02', companies: ['Demo Logistics'], tags: ['van', 'electric'], tracker: 'osmand' },
  {
    name: 'Truck North 1',
    companies: ['Demo Logistics North', 'Demo Logistics'],
    tags: ['truck'],
    tracker: 'teltonika',
  },
  {
    name: 'Truck North 2',
    companies: ['Demo Logistics North'],
    tags: ['truck', 'refrigerated'],
    tracker: 'teltonika',
  },
  { name: 'Courier Bike 1', companies: ['Demo Couriers Harbour'], tags: ['bike'], tracker: 'gt06' },
  { name: 'Truck South 1', companies: ['Demo Logistics South'], tags: ['truck'], tracker: 'teltonika' },
  {
    name: 'Freight Hauler 1',
    companies: ['Demo Suspended Freight'],
    tags: ['truck', 'electric'],
    tracker: 'osmand',
  },
];

/** The demo vehicles' natural keys: fixed, so that a second run finds what the first registered. */
export const demoImei = (index: number) => `35693803${String(index + 1).padStart(7, '0')}`;
export const demoVin = (index: number) => `WDB9066351S${String(100_000 + index + 1)}`;

/** A demo vehicle as both modes list it in `demo-credentials.json` (the simulator's input). */
export interface DemoVehicleEntry {
  id: number;
  name: string;
  imei: string;
  vin: string;
  companyIds: number[];
  tags: string[];
  /** The protocol its simulated tracker speaks. */
  tracker: TrackerProtocol;
  /**
   * The OsmAnd device secret its reports carry (docs/device-settings.md), so that its commands reach it:
   * commands go only to devices that prove who they are (docs/security.md, F1). Teltonika and GT06
   * demo trackers are pinned to this machine's addresses instead.
   */
  deviceSecret?: string;
}
