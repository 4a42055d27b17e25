import { DataSource } from 'typeorm';

/**
 * Runs a batched DELETE until it deletes fewer rows than a batch: short transactions, no long lock on
 * a table others write. `statement` deletes at most `LIMIT $n` rows, `$n` being the last parameter,
 * which this supplies (`batchSize`). Returns the rows deleted in all.
 */
export async function deleteInBatches(
  dataSource: DataSource,
  statement: string,
  params: readonly unknown[],
  batchSize = 5_000,
): Promise<number> {
  let total = 0;
  for (;;) {
    // TypeORM answers a DELETE as [rows, count].
    const [, deleted] = (await dataSource.query(statement, [...params, batchSize])) as [unknown, number];
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
