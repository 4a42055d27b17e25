/** The PostgreSQL schema (and TypeORM DataSource name) of telemetry-ingest. */
export const INGEST_SCHEMA = 'ingest';
