import { Client } from 'pg';

/** Creates `database` unless the server has it (the name is checked by the caller's pattern). */
export async function createDatabaseUnlessExists(client: Client, database: string): Promise<void> {
  const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  // Identifiers cannot be parameters.
  if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
}
