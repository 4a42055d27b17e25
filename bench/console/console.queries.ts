/** What bench/console reads of the embedded stack's database. */
import type { Pool } from 'pg';

/** The id of the first company (the demo tenant the embedded setup provisions). */
export async function firstCompanyId(pool: Pool): Promise<number> {
  const [{ id }] = (await pool.query<{ id: number }>('SELECT id FROM auth.companies ORDER BY id LIMIT 1'))
    .rows;
  return id;
}
