import { createTestDatabase, TestDatabase } from '@fleet/testing';
import { DataSource } from 'typeorm';
import { applySnapshotRows, SnapshotTable } from './snapshots';

interface Thing {
  id: number;
  name: string;
  version: number;
  deleted: boolean;
}

const things: SnapshotTable<Thing> = {
  table: 'projection.things',
  key: 'id',
  rowOf: (thing) => ({ id: thing.id, name: thing.name, version: thing.version }),
  isDeleted: (thing) => thing.deleted,
};

describe('applySnapshotRows (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await new DataSource({ type: 'postgres', url: database.url }).initialize();
    await dataSource.query(
      'CREATE SCHEMA projection; CREATE TABLE projection.things (id int PRIMARY KEY, name text NOT NULL, version int NOT NULL)',
    );
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const rows = () => dataSource.query('SELECT id, name, version FROM projection.things ORDER BY id');
  const apply = (...snapshots: Thing[]) =>
    dataSource.transaction((manager) => applySnapshotRows(manager, things, snapshots));
  const thing = (id: number, name: string, version: number, deleted = false): Thing => ({
    id,
    name,
    version,
    deleted,
  });

  it('inserts, replaces only with newer versions, and deletes only what is not newer', async () => {
    await apply(thing(1, 'one', 1), thing(2, 'two', 3));
    await apply(thing(1, 'one, renamed', 2), thing(1, 'one, redelivered late', 1), thing(2, 'two, older', 2));
    expect(await rows()).toEqual([
      { id: 1, name: 'one, renamed', version: 2 },
      { id: 2, name: 'two', version: 3 },
    ]);
    await apply(thing(2, 'two', 2, true), thing(1, 'one', 2, true));
    expect(await rows()).toEqual([{ id: 2, name: 'two', version: 3 }]);
  });
});
