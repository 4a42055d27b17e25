import { createTestDatabase, TestDatabase } from '@fleet/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { MonthlyPartitions } from './monthly-partitions';

/**
 * The partition maintenance shared by query-api's position history and alert-engine's records, on a
 * table of its own shape: partitions created ahead, dropped past retention, the default partition
 * trimmed row by row, and one maintainer at a time.
 */
describe('MonthlyPartitions (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let partitions: MonthlyPartitions;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await new DataSource({ type: 'postgres', url: database.url }).initialize();
    await dataSource.query(`
      CREATE SCHEMA history;
      CREATE TABLE history.events (id int NOT NULL, at timestamptz NOT NULL) PARTITION BY RANGE (at);
      CREATE TABLE history.events_default PARTITION OF history.events DEFAULT;`);
    partitions = new MonthlyPartitions(dataSource, {
      schema: 'history',
      table: 'events',
      timeColumn: 'at',
      retentionDays: 60,
      monthsAhead: 2,
    });
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const held = async () =>
    (
      await dataSource.query(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'history.events'::regclass ORDER BY 1`,
      )
    ).map((row: { name: string }) => row.name);

  it('creates last month to two months ahead, once', async () => {
    await expect(partitions.maintain(new Date('2026-06-15T12:00:00Z'))).resolves.toEqual({
      created: ['events_2026_05', 'events_2026_06', 'events_2026_07', 'events_2026_08'],
      dropped: [],
    });
    await expect(partitions.maintain(new Date('2026-06-20T12:00:00Z'))).resolves.toEqual({
      created: [],
      dropped: [],
    });
    // A row goes to its month's partition.
    await dataSource.query(`INSERT INTO history.events VALUES (1, '2026-07-31T23:59:59Z')`);
    const [{ partition }] = await dataSource.query(
      `SELECT tableoid::regclass::text AS partition FROM history.events`,
    );
    expect(partition).toBe('history.events_2026_07');
  });

  it('drops the partitions wholly past retention and trims the default partition', async () => {
    await dataSource.query(
      `INSERT INTO history.events VALUES (2, '2020-01-01T00:00:00Z'), (3, '2030-01-01T00:00:00Z')`,
    );
    // Retention 60 days before 2026-10-15: the cut is 2026-08-16; August ends after it and stays.
    await expect(partitions.maintain(new Date('2026-10-15T12:00:00Z'))).resolves.toEqual({
      created: ['events_2026_09', 'events_2026_10', 'events_2026_11', 'events_2026_12'],
      dropped: ['events_2026_05', 'events_2026_06', 'events_2026_07'],
    });
    expect(await held()).toEqual([
      'events_2026_08',
      'events_2026_09',
      'events_2026_10',
      'events_2026_11',
      'events_2026_12',
      'events_default',
    ]);
    expect(
      (await dataSource.query('SELECT id FROM history.events ORDER BY id')).map(
        (row: { id: number }) => row.id,
      ),
    ).toEqual([3]);
  });

  it('leaves the round to the replica holding the lock', async () => {
    const other = new Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(hashtext('fleet-partitions:history.events'))`);
      await expect(partitions.maintain(new Date('2027-03-15T12:00:00Z'))).resolves.toEqual({
        created: [],
        dropped: [],
      });
      await other.query('COMMIT');
    } finally {
      await other.end();
    }
    await expect(partitions.maintain(new Date('2027-03-15T12:00:00Z'))).resolves.toMatchObject({
      created: ['events_2027_02', 'events_2027_03', 'events_2027_04', 'events_2027_05'],
    });
  });
});
