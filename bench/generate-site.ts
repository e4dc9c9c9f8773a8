// Fills a fresh database with a generated site (default 10,000 articles in 10 categories).
import { openDatabase, migrateToLatest } from '../src/server/db/client.ts';
import { insertCategory } from '../src/server/db/repositories/categories.ts';
import { insertBlog } from '../src/server/db/repositories/blogs.ts';
import { insertComment } from '../src/server/db/repositories/comments.ts';
import { insertSlide } from '../src/server/db/repositories/carousel.ts';
import { ensureAdmin } from '../src/server/auth/admin-account.ts';
import { htmlToText, sanitizeArticleHtml } from '../src/server/content/sanitize.ts';
import { buildBlogWrite } from '../tests/support/builders.ts';

const WORDS =
  'study notes revision exam method theory practice example chapter summary formula diagram concept lesson answer question'.split(
    ' ',
  );

function paragraph(seed: number, words = 60): string {
  let text = '';
  for (let i = 0; i < words; i++) text += `${WORDS[(seed * 31 + i * 7) % WORDS.length]} `;
  return text.trim();
}

export async function generateSite(
  file: string,
  options: { articles: number; categories: number; adminEmail: string; adminPassword: string },
) {
  const { db, sqlite } = openDatabase(file);
  await migrateToLatest(db);
  await ensureAdmin(db, options.adminEmail, options.adminPassword);
  const start = Date.now() - options.articles * 3600_000;
  await db.transaction().execute(async (trx) => {
    const categoryIds: number[] = [];
    for (let c = 0; c < options.categories; c++)
      categoryIds.push((await insertCategory(trx, { name: `Subject ${c + 1}`, sequence: c })).id);
    for (let i = 0; i < options.articles; i++) {
      const html = sanitizeArticleHtml(
        `<h2>Part ${i}</h2><p>${paragraph(i)}</p><ul><li>${paragraph(i + 1, 12)}</li><li>${paragraph(i + 2, 12)}</li></ul><p>${paragraph(i + 3, 80)}</p>`,
      );
      const id = await insertBlog(
        trx,
        buildBlogWrite({
          title: `Generated article ${i + 1}: ${paragraph(i, 4)}`,
          content: html,
          category_id: categoryIds[i % categoryIds.length]!,
          pdf_drive_link: i % 10 === 0 ? `/uploads/pdfs/generated-${i}.pdf` : null,
        }),
        htmlToText(html),
        new Date(start + i * 3600_000).toISOString(),
      );
      if (i % 5 === 0) await insertComment(trx, { blogId: id, username: 'Reader', comment: paragraph(i, 20), contact: null });
    }
    for (let s = 0; s < 3; s++)
      await insertSlide(trx, { title: `Slide ${s + 1}`, imageUrl: '/favicon.ico', altText: `Slide ${s + 1}` });
  });
  await db.destroy();
  sqlite.close?.();
}
