/** The PostgreSQL schema (and TypeORM DataSource name) of alert-engine. */
export const ALERTS_SCHEMA = 'alerts';
