/** The schema (and DataSource name) of command-gateway's tables. */
export const COMMANDS_SCHEMA = 'commands';
