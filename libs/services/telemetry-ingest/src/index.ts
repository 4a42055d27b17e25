export * from './telemetry-ingest.module';
export * from './telemetry-ingest.schema';
export { MAX_POSITIONS_PER_BATCH } from './positions/position-batch.dto';
