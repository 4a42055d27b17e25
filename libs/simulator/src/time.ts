/**
 * Lengths of time in ms for the simulator. @fleet/contracts defines the same (`time.ts`), but the
 * simulator does not load the contracts at run time: it is a device emulator that speaks the trackers'
 * protocols, and the contracts' index pulls in the class-validator decorators (and reflect-metadata,
 * which the simulator's process never loads).
 */
export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
/** The simulation's step: a vehicle's state moves on by one second at a time. */
export const STEP_S = 1;
export const STEP_MS = STEP_S * 1000;
