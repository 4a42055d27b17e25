/** The PostgreSQL schema (and TypeORM DataSource name) of webhook-dispatcher. */
export const WEBHOOKS_SCHEMA = 'webhooks';
