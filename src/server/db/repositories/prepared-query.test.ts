import { describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../client.ts';
import { preparedQuery } from './prepared-query.ts';

async function database() {
  const opened = openDatabase(':memory:');
  await migrateToLatest(opened.db);
  for (const [name, sequence] of [
    ['Maths', 1],
    ['Physics', 2],
    ['Chemistry', 3],
  ] as const)
    await opened.db.insertInto('categories').values({ name, sequence, created_at: 'now' }).execute();
  return opened;
}

describe('preparedQuery', () => {
  it('runs the SQL built once with each call’s own values, and a new shape builds anew', async () => {
    const { db, sqlite } = await database();
    const byNames = preparedQuery({
      build: (d: typeof db, names: string[], above: number) =>
        d.selectFrom('categories').select('name').where('name', 'in', names).where('sequence', '>', above).orderBy('sequence'),
      parameters: (names, above) => [...names, above],
      shape: (names) => names.length,
    });
    expect(await byNames(db, ['Maths', 'Physics'], 0)).toEqual([{ name: 'Maths' }, { name: 'Physics' }]);
    expect(await byNames(db, ['Chemistry', 'Physics'], 2)).toEqual([{ name: 'Chemistry' }]);
    expect(await byNames(db, ['Chemistry'], 0)).toEqual([{ name: 'Chemistry' }]);
    sqlite.close();
  });

  it('refuses values listed in another order than the SQL takes them', async () => {
    const { db, sqlite } = await database();
    const wrong = preparedQuery({
      build: (d: typeof db, name: string, above: number) =>
        d.selectFrom('categories').select('name').where('name', '=', name).where('sequence', '>', above),
      parameters: (name, above) => [above, name],
    });
    await expect(wrong(db, 'Maths', 0)).rejects.toThrow(/preparedQuery: the built SQL takes \["Maths",0\], not \[0,"Maths"\]/);
    sqlite.close();
  });
});
