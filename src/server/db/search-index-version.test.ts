import { describe, expect, it } from 'vitest';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { insertBlog, updateBlog } from './repositories/blogs.ts';
import { readSearchIndexVersion, refreshPdfColumn } from './repositories/search.ts';
import { buildBlogWrite } from '../../../tests/support/builders.ts';

describe('the word index version (migration 0010)', () => {
  it('moves with every write to the index, and only then', async () => {
    const opened = await openMigratedDatabase();
    try {
      const version = () => readSearchIndexVersion(opened.sqlite);
      const start = version();
      const id = await insertBlog(
        opened.db,
        buildBlogWrite({ title: 'Cells', pdf_drive_link: '/uploads/pdfs/cells.pdf' }),
        'Mitosis.',
      );
      const afterInsert = version();
      expect(afterInsert).toBeGreaterThan(start);
      await updateBlog(
        opened.db,
        id,
        buildBlogWrite({ title: 'Cells again', pdf_drive_link: '/uploads/pdfs/cells.pdf' }),
        'Meiosis.',
      );
      const afterUpdate = version();
      expect(afterUpdate).toBeGreaterThan(afterInsert);
      await refreshPdfColumn(opened.db, 'pdfs/cells.pdf', 'Chromosomes.');
      expect(version()).toBeGreaterThan(afterUpdate);
      const settled = version();
      // A PDF attached to no indexed article writes nothing to the index.
      await refreshPdfColumn(opened.db, 'pdfs/other.pdf', 'Nothing.');
      expect(version()).toBe(settled);
    } finally {
      opened.close();
    }
  });
});
