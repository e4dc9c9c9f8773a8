import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../src/server/db/client.ts';
import { insertBlog } from '../../src/server/db/repositories/blogs.ts';
import { insertCategory } from '../../src/server/db/repositories/categories.ts';
import { insertComment } from '../../src/server/db/repositories/comments.ts';
import { insertSlide } from '../../src/server/db/repositories/carousel.ts';
import { htmlToText, sanitizeArticleHtml } from '../../src/server/content/sanitize.ts';
import { drawDemoPdf, drawDemoPng } from './demo-files.ts';

const CATEGORIES = [
  'Mathematics',
  'Physics',
  'Chemistry',
  'Biology',
  'History',
  'Geography',
  'Computer Science',
  'Economics',
  'Literature',
  'Languages',
  'Exam Tips',
];

const TOPICS: Record<string, string[]> = {
  Mathematics: [
    'Solving Quadratic Equations Step by Step',
    'A Gentle Introduction to Derivatives',
    'Probability Without Tears',
    'Vectors and Matrices for Beginners',
  ],
  Physics: ["Newton's Laws in Everyday Life", 'Understanding Electric Circuits', 'Waves, Sound and Light'],
  Chemistry: ['Balancing Chemical Equations', 'The Periodic Table Explained', 'Acids, Bases and pH'],
  Biology: ['Cell Structure and Function', 'How Photosynthesis Works', 'Genetics and Inheritance Basics'],
  History: ['Causes of the First World War', 'The Industrial Revolution in Ten Points', 'Ancient Civilisations Compared'],
  Geography: ['Plate Tectonics and Earthquakes', 'Climate Zones of the World', 'Reading Topographic Maps'],
  'Computer Science': ['Algorithms and Big-O Notation', 'How the Internet Works', 'Your First Python Program'],
  Economics: ['Supply and Demand Made Simple', 'Inflation and Interest Rates'],
  Literature: ['How to Analyse a Poem', "Themes in Shakespeare's Macbeth"],
  Languages: ['Mastering English Tenses', 'Building Vocabulary That Sticks'],
  'Exam Tips': ['Planning Your Revision Timetable', 'Active Recall and Spaced Repetition', 'Staying Calm on Exam Day'],
};

const PALETTE: Array<[[number, number, number], [number, number, number]]> = [
  [
    [30, 64, 175],
    [14, 165, 233],
  ],
  [
    [124, 58, 237],
    [236, 72, 153],
  ],
  [
    [5, 150, 105],
    [132, 204, 22],
  ],
  [
    [194, 65, 12],
    [250, 204, 21],
  ],
  [
    [15, 23, 42],
    [71, 85, 105],
  ],
  [
    [190, 18, 60],
    [251, 113, 133],
  ],
  [
    [8, 145, 178],
    [45, 212, 191],
  ],
  [
    [67, 56, 202],
    [129, 140, 248],
  ],
];

const VIDEOS = [
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  'https://youtu.be/aqz-KE-bpKQ',
  'https://www.youtube.com/watch?v=jNQXAC9IVRw',
];

const COMMENTERS = ['Asha', 'Ben', 'Chen', 'Dina', 'Emeka', 'Farah', 'Gustav'];
const COMMENT_TEXTS = [
  'This explanation finally made it click for me, thank you!',
  'Could you add a few more practice questions at the end?',
  'Great summary. I printed the PDF for my revision folder.',
  'The diagram in the second section was really helpful.',
  'I shared this with my study group.',
];

function articleHtml(title: string, category: string, index: number): string {
  return [
    `<p>This guide covers <strong>${title.toLowerCase()}</strong> as part of our ${category} series. Read it once for the big picture, then work through the examples with a pencil in hand.</p>`,
    '<h2>Key ideas</h2>',
    '<ul><li>Start from definitions and say them in your own words.</li><li>Work one example slowly before trying harder ones.</li><li>Check every answer against the method, not just the result.</li></ul>',
    `<h3>Worked example ${index + 1}</h3>`,
    `<p>Take the simplest case first. Write down what you know, what you want, and the rule that links them. <u>Underline the step where most students slip</u>, and <em>say why</em> it works.</p>`,
    `<p><span style="color: #b91c1c">Common mistake:</span> skipping units or signs. <span style="background-color: #fef08a">Highlight</span> them while you revise.</p>`,
    '<h2>Practice</h2>',
    '<ol><li>Summarise this page in five lines.</li><li>Make three flashcards from the key ideas.</li><li>Explain the worked example to a friend.</li></ol>',
    '<p>Further reading: <a href="https://en.wikipedia.org/wiki/Study_skills">study skills on Wikipedia</a>. Questions? <a href="mailto:teacher@example.org">Email your teacher</a>.</p>',
  ].join('\n');
}

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
  const images = PALETTE.map(([from, to], i) => {
    const name = `demo-${i + 1}.png`;
    const file = path.join(demoDir, name);
    if (!fs.existsSync(file)) fs.writeFileSync(file, drawDemoPng(from, to, i + 1));
    return `/uploads/demo/${name}`;
  });

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
      const id = await insertBlog(
        trx,
        {
          title: article.title,
          author,
          content: html,
          content_source: null,
          category_id: n === order.length - 5 ? null : (categoryIds.get(article.category) ?? null),
          image: images[n % images.length]!,
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
      await trx
        .updateTable('blogs')
        .set({ clicks: (n * 37) % 211 })
        .where('id', '=', id)
        .execute();
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

    const slides = [
      { title: 'Revise smarter, not longer', altText: 'Blue gradient banner for revision tips' },
      { title: 'New: free PDF study notes', altText: 'Purple gradient banner for the PDF notes' },
      { title: 'Watch the video lessons', altText: 'Green gradient banner for video lessons' },
    ];
    for (const [i, slide] of slides.entries()) {
      await insertSlide(trx, { title: slide.title, imageUrl: images[i]!, altText: slide.altText });
    }
    return { categories: CATEGORIES.length, blogs: order.length, comments, slides: slides.length };
  });
}
