/**
 * Tracker wire protocols (Teltonika, Concox GT06), both directions: what a device sends and what a
 * server answers. Pure functions over bytes, no I/O: telemetry-ingest decodes with them and the
 * simulator and the tests encode with them (docs/decisions/0011-tracker-protocols.md).
 */
export * from './teltonika';
export * from './gt06';
