import type { Db } from '../client.ts';
import type { ImportSourcesTable } from '../schema.ts';

/** What an imported item became here (migration 0012): the key that makes imports idempotent. */
export type ImportSourceKey = Pick<ImportSourcesTable, 'source' | 'kind' | 'source_id'>;
export type ImportSourceRow = ImportSourcesTable;

export function findImportSource(db: Db, key: ImportSourceKey): Promise<ImportSourceRow | undefined> {
  return db
    .selectFrom('import_sources')
    .selectAll()
    .where('source', '=', key.source)
    .where('kind', '=', key.kind)
    .where('source_id', '=', key.source_id)
    .executeTakeFirst();
}

/** Every item of one kind a source brought, for a run's lookups in one read. */
export async function listImportSources(db: Db, source: string, kind: string): Promise<Map<string, ImportSourceRow>> {
  const rows = await db.selectFrom('import_sources').selectAll().where('source', '=', source).where('kind', '=', kind).execute();
  return new Map(rows.map((row) => [row.source_id, row]));
}

export async function saveImportSource(
  db: Db,
  row: ImportSourceKey & Pick<ImportSourcesTable, 'target_id' | 'target_url' | 'hash'>,
  now = new Date().toISOString(),
): Promise<void> {
  await db
    .insertInto('import_sources')
    .values({ ...row, imported_at: now })
    .onConflict((oc) =>
      oc.columns(['source', 'kind', 'source_id']).doUpdateSet({
        target_id: row.target_id,
        target_url: row.target_url,
        hash: row.hash,
        imported_at: now,
      }),
    )
    .execute();
}
