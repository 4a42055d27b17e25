/** The PostgreSQL schema (and TypeORM DataSource name) of query-api. */
export const QUERY_SCHEMA = 'query';
