/** The PostgreSQL schema (and TypeORM DataSource name) of auth. */
export const AUTH_SCHEMA = 'auth';
