import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from '../client.ts';

/**
 * A read whose SQL kysely builds once; later calls run that SQL with their own parameters.
 * Building and compiling a query took 5 to 10 times what SQLite needs to answer the point reads a
 * page render makes (an article by id, a list page's summaries), and a pre-render makes them once
 * per page. `parameters` lists the values in the order the built SQL takes them: the first build
 * checks it against kysely's own list and throws on a mismatch, so a changed query cannot run
 * with its values in the wrong places. `shape` tells apart arguments that change the SQL itself
 * (the number of ids in an `in (...)`).
 */
export function preparedQuery<Args extends unknown[], Row>(options: {
  build: (db: Db, ...args: Args) => Compilable<Row>;
  parameters: (...args: Args) => readonly unknown[];
  shape?: (...args: Args) => string | number;
}): (db: Db, ...args: Args) => Promise<Row[]> {
  const built = new Map<string | number, CompiledQuery<Row>>();
  return async (db, ...args) => {
    const shape = options.shape?.(...args) ?? '';
    const parameters = options.parameters(...args);
    let query = built.get(shape);
    if (!query) {
      query = options.build(db, ...args).compile();
      const expected = JSON.stringify(parameters);
      if (JSON.stringify(query.parameters) !== expected) {
        throw new Error(`preparedQuery: the built SQL takes ${JSON.stringify(query.parameters)}, not ${expected}`);
      }
      built.set(shape, query);
    }
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}
