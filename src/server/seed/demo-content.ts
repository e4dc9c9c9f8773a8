import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/client.ts';
import { insertBlog, setClicks } from '../db/repositories/blogs.ts';
import { insertDailyViews } from '../db/repositories/clicks.ts';
import { insertCategory } from '../db/repositories/categories.ts';
import { insertComment } from '../db/repositories/comments.ts';
import { insertSlide } from '../db/repositories/carousel.ts';
import { markDemo } from '../db/repositories/demo-content.ts';
import { readSettingRows, writeSettingRows } from '../db/repositories/site-settings.ts';
import { DEMO_SOCIAL_LINKS } from '../content/demo-social-links.ts';
import { htmlToText, sanitizeArticleHtml } from '../content/sanitize.ts';
import { loadSharp } from '../uploads/sharp.ts';
import { drawDemoPdf } from '../../../db/seed/demo-files.ts';
import { articleHtml, CATEGORIES, COMMENT_TEXTS, COMMENTERS, SLIDES, TOPICS, VIDEOS } from '../../../db/seed/demo-data.ts';
import { slideIllustration, subjectIllustration } from '../../../db/seed/demo-illustrations.ts';
import { demoViewsByDay } from '../../../db/seed/demo-views.ts';

export interface SeedResult {
  categories: number;
  blogs: number;
  comments: number;
  slides: number;
}

/** Fills an empty database with a demo site. Writes images and PDFs into uploadsDir. */
export async function seedDemoContent(db: Db, uploadsDir: string, author: string): Promise<SeedResult> {
  const demoDir = path.join(uploadsDir, 'demo');
  fs.mkdirSync(demoDir, { recursive: true });
  /** Draws the picture once (a restart keeps what is there) and answers its address. */
  const picture = async (name: string, svg: () => string): Promise<string> => {
    const file = path.join(demoDir, name);
    if (!fs.existsSync(file))
      await (await loadSharp())(Buffer.from(svg())).png({ compressionLevel: 9, palette: true }).toFile(file);
    return `/uploads/demo/${name}`;
  };
  const subjectImages = new Map<string, string>();
  for (const subject of [...CATEGORIES, 'General']) {
    const slug = subject.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    subjectImages.set(subject, await picture(`subject-${slug}.png`, () => subjectIllustration(subject)));
  }
  const slideImages: string[] = [];
  for (const i of SLIDES.keys()) slideImages.push(await picture(`slide-${i + 1}.png`, () => slideIllustration(i)));

  return db.transaction().execute(async (trx) => {
    const categoryIds = new Map<string, number>();
    for (const [i, name] of CATEGORIES.entries()) {
      const category = await insertCategory(trx, { name, sequence: i + 1 });
      categoryIds.set(name, category.id);
    }

    const articles = CATEGORIES.flatMap((category) => (TOPICS[category] ?? []).map((title) => ({ category, title })));
    // Oldest first, one every ~40 hours, so the newest lands on home page 1.
    const start = Date.now() - articles.length * 40 * 3600 * 1000;
    const order = articles
      .map((a, i) => ({ ...a, i }))
      .sort((a, b) => ((a.i * 7) % articles.length) - ((b.i * 7) % articles.length));
    let comments = 0;
    const blogIds: number[] = [];
    for (const [n, article] of order.entries()) {
      const html = sanitizeArticleHtml(articleHtml(article.title, article.category, n));
      const isVideo = n % 6 === 2;
      const hasPdf = n % 3 === 0;
      let pdfLink: string | null = null;
      if (hasPdf) {
        const pdfName = `notes-${n + 1}.pdf`;
        fs.writeFileSync(
          path.join(demoDir, pdfName),
          drawDemoPdf(article.title, [
            `${article.category} study notes`,
            'Key ideas, a worked example and practice questions.',
            'Demo content of the study site.',
          ]),
        );
        pdfLink = `/uploads/demo/${pdfName}`;
      }
      const created = new Date(start + n * 40 * 3600 * 1000).toISOString();
      const uncategorised = n === order.length - 5;
      const id = await insertBlog(
        trx,
        {
          title: article.title,
          author,
          content: html,
          content_source: null,
          category_id: uncategorised ? null : (categoryIds.get(article.category) ?? null),
          image: subjectImages.get(uncategorised ? 'General' : article.category)!,
          video_link: isVideo ? VIDEOS[n % VIDEOS.length]! : null,
          is_video: isVideo ? 1 : 0,
          pdf_drive_link: pdfLink,
          pay_link: n % 5 === 1 ? 'https://example.org/support' : null,
          form_name: n % 4 === 1 ? 'Feedback form' : null,
          form_link: n % 4 === 1 ? 'https://example.org/feedback' : null,
        },
        htmlToText(html),
        created,
      );
      blogIds.push(id);
      const views = (n * 37) % 211;
      await setClicks(trx, id, views);
      await insertDailyViews(trx, id, demoViewsByDay(views, created, new Date(), n));
      const count = n % 3;
      for (let c = 0; c < count; c++) {
        await insertComment(trx, {
          blogId: id,
          username: COMMENTERS[(n + c) % COMMENTERS.length]!,
          comment: COMMENT_TEXTS[(n * 2 + c) % COMMENT_TEXTS.length]!,
          contact: null,
        });
        comments++;
      }
    }

    const slideIds: number[] = [];
    for (const [i, slide] of SLIDES.entries()) {
      slideIds.push((await insertSlide(trx, { title: slide.title, imageUrl: slideImages[i]!, altText: slide.altText })).id);
    }
    // Marked, so the settings screen can remove all of it in one step.
    await markDemo(trx, { blogs: blogIds, categories: [...categoryIds.values()], slides: slideIds });
    // Example social profiles, unless the publisher already set their own.
    const stored = await readSettingRows(trx);
    await writeSettingRows(trx, Object.fromEntries(Object.entries(DEMO_SOCIAL_LINKS).filter(([key]) => !(key in stored))));
    return { categories: CATEGORIES.length, blogs: order.length, comments, slides: SLIDES.length };
  });
}
