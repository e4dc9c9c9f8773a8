import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { UPLOAD_MESSAGES } from '../../src/shared/validation/uploads.ts';
import { makeJpegWithExif, makePdf, makePng, makePngHeaderOnly } from '../support/files.ts';
import {
  call,
  expectError,
  sendForm,
  sendJson,
  uploadImage as uploadImageTo,
  uploadPdf as uploadPdfTo,
  type Answer,
  type FilePart,
  type Json,
} from './http-support.ts';

/**
 * Image and PDF uploads against the real built server (docs/product.md#validation-rules): images
 * are judged by their bytes and re-encoded to clean WebP in three widths, PDFs must be PDFs, the
 * limits answer 413/415/422 with JSON, and nothing half-written or stray is left on disk.
 */

let server: TestServer;
let auth: Record<string, string>;
let categoryId: number;
const repoUploads = path.resolve(import.meta.dirname, '../../uploads');
let repoUploadsBefore: string[];
let dataDirBefore: string[];

const IMAGE_URL = /^\/uploads\/images\/([a-z0-9]+)-w1600\.webp$/;
const MB = 1024 * 1024;

/** Every file under dir, relative, sorted (dot files included). */
function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The data folder outside uploads/ and the page store: only the database may be there. */
function listDataDir(): string[] {
  return listFiles(server.dir).filter(
    (f) => !f.startsWith(`uploads${path.sep}`) && !f.startsWith(`pages${path.sep}`) && !/^site\.sqlite(-wal|-shm)?$/.test(f),
  );
}

beforeAll(async () => {
  repoUploadsBefore = listFiles(repoUploads);
  server = await startServer();
  dataDirBefore = listDataDir();
  auth = bearer(await loginAsAdmin(server));
  categoryId = ((await call(server, '/api/categories')).body as Json[])[0]!.id as number;
});

afterAll(async () => {
  await server?.stop();
});

const uploadImage = (file: FilePart) => uploadImageTo(server, file, auth);
const uploadPdf = (file: FilePart) => uploadPdfTo(server, file, auth);

function storedImageFiles(url: string): string[] {
  const id = IMAGE_URL.exec(url)![1]!;
  return [480, 960, 1600].map((w) => path.join(server.uploadsDir, 'images', `${id}-w${w}.webp`));
}

/** Runs a refused upload and checks it left the uploads folder exactly as it was. */
async function expectRefused(run: () => Promise<Answer>, status: number, message?: string): Promise<Json> {
  const before = listFiles(server.uploadsDir);
  const body = expectError(await run(), status);
  if (message) expect(body.message).toBe(message);
  expect(listFiles(server.uploadsDir)).toEqual(before);
  return body;
}

describe('image upload', () => {
  it('re-encodes a PNG into three clean WebP widths and serves them', async () => {
    const png = await makePng(2000, 1000, { exif: true });
    expect(png.includes('EXIF-MARKER')).toBe(true);
    const answer = await uploadImage({ data: png, name: 'cover photo.png', type: 'image/png' });
    expect(answer.status, answer.text).toBe(201);
    const body = answer.body as Json;
    expect(body.url).toMatch(IMAGE_URL);
    expect(body).toMatchObject({ width: 1600, height: 800 });
    const base = (body.url as string).replace(/-w1600\.webp$/, '');
    expect(body.srcset).toBe(`${base}-w480.webp 480w, ${base}-w960.webp 960w, ${base}-w1600.webp 1600w`);

    const files = storedImageFiles(body.url as string);
    for (const [i, file] of files.entries()) {
      const bytes = fs.readFileSync(file);
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe([480, 960, 1600][i]);
      expect(meta.height).toBe([240, 480, 800][i]);
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(bytes.includes('EXIF-MARKER')).toBe(false);
    }

    const served = await fetch(server.url(body.url as string));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(fs.readFileSync(files[2]!))).toBe(true);
  });

  it('never enlarges a small image and applies the EXIF orientation', async () => {
    const small = (await uploadImage({ data: await makePng(300, 200), name: 'small.png' })).body as Json;
    expect(small).toMatchObject({ width: 300, height: 200 });
    for (const file of storedImageFiles(small.url as string)) expect((await sharp(file).metadata()).width).toBe(300);

    const jpeg = await makeJpegWithExif(200, 100, 6);
    const rotated = await uploadImage({ data: jpeg, name: 'phone.jpg', type: 'image/jpeg' });
    expect(rotated.status, rotated.text).toBe(201);
    expect(rotated.body).toMatchObject({ width: 100, height: 200 });
    for (const file of storedImageFiles((rotated.body as Json).url as string)) {
      const meta = await sharp(file).metadata();
      expect(meta.orientation ?? 1).toBe(1);
      expect(meta.exif).toBeUndefined();
      expect(fs.readFileSync(file).includes('EXIF-MARKER')).toBe(false);
    }
  });

  it('strips a payload appended to a real JPEG', async () => {
    const jpeg = await makeJpegWithExif(640, 480);
    const polyglot = Buffer.concat([jpeg, Buffer.from('<html><script>alert(document.cookie)</script></html>')]);
    const answer = await uploadImage({ data: polyglot, name: 'innocent.jpg', type: 'image/jpeg' });
    expect(answer.status, answer.text).toBe(201);
    for (const file of storedImageFiles((answer.body as Json).url as string)) {
      const bytes = fs.readFileSync(file);
      expect(bytes.includes('<script')).toBe(false);
      expect(bytes.includes('EXIF-MARKER')).toBe(false);
    }
  });

  it('keeps an animated GIF animated', async () => {
    const frame = (colour: string) =>
      sharp({ create: { width: 60, height: 40, channels: 4, background: colour } })
        .png()
        .toBuffer();
    const gif = await sharp([await frame('#00ff00'), await frame('#0000ff')], { join: { animated: true } })
      .gif({ delay: [200, 200] })
      .toBuffer();
    const answer = await uploadImage({ data: gif, name: 'anim.gif', type: 'image/gif' });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({ width: 60, height: 40 });
    const meta = await sharp(storedImageFiles((answer.body as Json).url as string)[0]!, { animated: true }).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.pages).toBe(2);
  });

  it('accepts an image just under 5 MB', async () => {
    // Random pixels do not compress: this PNG is a little under 5 MB.
    const noise = crypto.randomFillSync(Buffer.alloc(1250 * 1300 * 3));
    const png = await sharp(noise, { raw: { width: 1250, height: 1300, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(png.length).toBeGreaterThan(4.5 * MB);
    expect(png.length).toBeLessThanOrEqual(5 * MB);
    const answer = await uploadImage({ data: png, name: 'noise.png', type: 'image/png' });
    expect(answer.status, answer.text).toBe(201);
  });

  it('refuses what is not a JPG, PNG, GIF or WEBP with 415, whatever its name or type', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    const cases: FilePart[] = [
      { data: Buffer.from('<html><body><script>alert(1)</script></body></html>'), name: 'photo.jpg', type: 'image/jpeg' },
      { data: Buffer.from(svg), name: 'logo.svg', type: 'image/svg+xml' },
      { data: Buffer.from(svg), name: 'logo.png', type: 'image/png' },
      { data: Buffer.from('just some text'), name: 'notes.txt', type: 'text/plain' },
      { data: makePdf(), name: 'doc.png', type: 'image/png' },
      {
        data: await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } })
          .tiff()
          .toBuffer(),
        name: 'scan.tif',
        type: 'image/tiff',
      },
    ];
    for (const file of cases) await expectRefused(() => uploadImage(file), 415, UPLOAD_MESSAGES.imageType);
  });

  it('refuses damaged images and pixel bombs with 422', async () => {
    await expectRefused(
      () => uploadImage({ data: makePngHeaderOnly(20000, 20000), name: 'bomb.png', type: 'image/png' }),
      422,
      UPLOAD_MESSAGES.imageUnreadable,
    );
    await expectRefused(() => uploadImage({ data: makePngHeaderOnly(100, 30000), name: 'tall.png' }), 422);
    const jpeg = await makeJpegWithExif(640, 480);
    await expectRefused(() => uploadImage({ data: jpeg.subarray(0, 300), name: 'cut.jpg', type: 'image/jpeg' }), 422);
    const png = await makePng(100, 100);
    await expectRefused(() => uploadImage({ data: png.subarray(0, png.length - 40), name: 'cut.png' }), 422);
  });

  it('refuses more than 5 MB with 413, with or without a declared length', async () => {
    const png = await makePng(16, 16);
    const tooBig = Buffer.concat([png, Buffer.alloc(5 * MB + 1 - png.length)]);
    expect(tooBig.length).toBe(5 * MB + 1);
    await expectRefused(
      () => uploadImage({ data: tooBig, name: 'big.png', type: 'image/png' }),
      413,
      UPLOAD_MESSAGES.imageTooLarge,
    );

    // A chunked body has no Content-Length: the server must count as it reads.
    const boundary = 'adminuploadsboundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
        for (let i = 0; i < 7; i++) controller.enqueue(new Uint8Array(MB));
        controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    await expectRefused(
      () =>
        call(server, '/api/blogs/upload-image-cloudinary', {
          method: 'POST',
          headers: { ...auth, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
          body: stream,
          duplex: 'half',
        } as RequestInit),
      413,
      UPLOAD_MESSAGES.imageTooLarge,
    );
  });

  it('answers 400 without a file and 415 for a body that is not multipart', async () => {
    const missing = await expectRefused(
      () => sendForm(server, '/api/blogs/upload-image-cloudinary', { other: 'x' }, auth),
      400,
      UPLOAD_MESSAGES.imageMissing,
    );
    expect(missing.fields).toEqual({ image: UPLOAD_MESSAGES.imageMissing });
    await expectRefused(() => uploadImage({ data: new Uint8Array(0), name: 'empty.png' }), 400, UPLOAD_MESSAGES.imageMissing);
    await expectRefused(() => sendJson(server, 'POST', '/api/blogs/upload-image-cloudinary', { image: 'x' }, auth), 415);
    await expectRefused(
      () =>
        call(server, '/api/blogs/upload-image-cloudinary', {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'multipart/form-data; boundary=zzz' },
          body: 'not multipart at all',
        }),
      400,
    );
  });
});

describe('PDF upload', () => {
  it('stores a real PDF byte for byte and serves it as a download', async () => {
    const pdf = makePdf('Chapter one');
    const answer = await uploadPdf({ data: pdf, name: 'Chapter 1 notes.pdf', type: 'application/pdf' });
    expect(answer.status, answer.text).toBe(201);
    const link = (answer.body as Json).link as string;
    expect(link).toMatch(/^\/uploads\/pdfs\/[a-z0-9]+\.pdf$/);
    expect(fs.readFileSync(path.join(server.uploadsDir, link.replace('/uploads/', ''))).equals(pdf)).toBe(true);

    const served = await fetch(server.url(link));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-disposition')).toBe(
      `attachment; filename="Chapter 1 notes.pdf"; filename*=UTF-8''Chapter%201%20notes.pdf`,
    );
    expect(Buffer.from(await served.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it('records a cleaned original name for the download', async () => {
    const names: Array<[string, string]> = [
      ['Chapter 1 notes.pdf', 'Chapter 1 notes.pdf'],
      ['../../etc/"evil";\r\nX-Injected: 1.PDF', '_evil__X-Injected_ 1.pdf'],
      ['résumé', 'résumé.pdf'],
      ['...', 'document.pdf'],
    ];
    const db = new SQLite(server.databasePath, { readonly: true });
    try {
      for (const [given, expected] of names) {
        const link = ((await uploadPdf({ data: makePdf(), name: given })).body as Json).link as string;
        const row = db
          .prepare('select kind, original_name, mime, size from uploads where path = ?')
          .get(link.replace('/uploads/', '')) as Json;
        expect(row).toEqual({ kind: 'pdf', original_name: expected, mime: 'application/pdf', size: makePdf().length });
        const disposition = (await fetch(server.url(link))).headers.get('content-disposition')!;
        expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(expected)}`);
        expect(disposition).not.toMatch(/[\r\n]/);
      }
    } finally {
      db.close();
    }
  });

  it('refuses what is not a PDF with 415 and a missing file with 400', async () => {
    const fakes: FilePart[] = [
      { data: Buffer.from('<html><script>alert(1)</script></html>'), name: 'notes.pdf', type: 'application/pdf' },
      { data: Buffer.from(' %PDF-1.4 leading space'), name: 'notes.pdf' },
      { data: await makePng(10, 10), name: 'notes.pdf', type: 'application/pdf' },
    ];
    for (const file of fakes) await expectRefused(() => uploadPdf(file), 415, UPLOAD_MESSAGES.pdfType);
    await expectRefused(
      () => sendForm(server, '/api/blogs/upload-pdf-local', { image: 'x' }, auth),
      400,
      UPLOAD_MESSAGES.pdfMissing,
    );
  });

  it('refuses more than 20 MB with 413', async () => {
    const pdf = makePdf();
    const tooBig = Buffer.concat([pdf, Buffer.alloc(20 * MB + 1 - pdf.length)]);
    await expectRefused(
      () => uploadPdf({ data: tooBig, name: 'huge.pdf', type: 'application/pdf' }),
      413,
      UPLOAD_MESSAGES.pdfTooLarge,
    );
  });

  it('accepts a PDF of 15 MB', async () => {
    const pdf = makePdf();
    const large = Buffer.concat([pdf, Buffer.alloc(15 * MB)]);
    const answer = await uploadPdf({ data: large, name: 'scan.pdf', type: 'application/pdf' });
    expect(answer.status, answer.text).toBe(201);
  });
});

describe('files of deleted and edited articles', () => {
  async function createBlog(fields: Json): Promise<Json> {
    const answer = await sendJson(
      server,
      'POST',
      '/api/blogs',
      { title: `Files ${Date.now()}`, category_id: categoryId, isVideo: '0', ...fields },
      auth,
    );
    expect(answer.status, answer.text).toBe(201);
    return answer.body as Json;
  }
  const exists = (url: string) => fs.existsSync(path.join(server.uploadsDir, url.replace('/uploads/', '')));

  it('removes uploaded files once no article or slide uses them, and never demo files', async () => {
    const cover = ((await uploadImage({ data: await makePng(800, 400), name: 'cover.png' })).body as Json).url as string;
    const inline = ((await uploadImage({ data: await makePng(500, 300), name: 'inline.png' })).body as Json).url as string;
    const pdf = ((await uploadPdf({ data: makePdf(), name: 'shared.pdf' })).body as Json).link as string;
    const first = await createBlog({ image: cover, pdf_link: pdf, content: `<p>Look:</p><img src="${inline}" alt="diagram">` });
    const second = await createBlog({ pdf_link: pdf });
    const demoBlog = (await call(server, '/api/blogs/1')).body as Json;
    const demoImage = demoBlog.image as string;
    expect(demoImage).toMatch(/^\/uploads\/demo\//);

    expect((await call(server, `/api/blogs/${first.id}`, { method: 'DELETE', headers: auth })).status).toBe(200);
    for (const file of [...storedImageFiles(cover), ...storedImageFiles(inline)]) expect(fs.existsSync(file)).toBe(false);
    expect(exists(pdf)).toBe(true);
    expect((await fetch(server.url(cover))).status).toBe(404);

    expect((await call(server, `/api/blogs/${second.id}`, { method: 'DELETE', headers: auth })).status).toBe(200);
    expect(exists(pdf)).toBe(false);

    expect((await call(server, '/api/blogs/1', { method: 'DELETE', headers: auth })).status).toBe(200);
    expect(exists(demoImage)).toBe(true);
  });

  it('keeps an image an edit replaced while a revision uses it, removes it with the article, and keeps one still in use', async () => {
    const oldCover = ((await uploadImage({ data: await makePng(400, 200), name: 'old.png' })).body as Json).url as string;
    const newCover = ((await uploadImage({ data: await makePng(400, 200), name: 'new.png' })).body as Json).url as string;
    const blog = await createBlog({ image: oldCover });
    const slide = await sendForm(
      server,
      '/api/carousel',
      { title: 'Uses new', image: { data: await makePng(300, 100), name: 's.png' } },
      auth,
    );
    expect(slide.status).toBe(201);
    const kept = await createBlog({ image: newCover });

    const edited = await sendJson(
      server,
      'PUT',
      `/api/blogs/${blog.id}`,
      { title: blog.title, category_id: categoryId, image: newCover },
      auth,
    );
    expect(edited.status, edited.text).toBe(200);
    // The first revision still shows the old cover and can be restored: it stays until the
    // revision goes (pruned, or with the article).
    expect(exists(oldCover)).toBe(true);
    expect(exists(newCover)).toBe(true);

    const again = await sendJson(
      server,
      'PUT',
      `/api/blogs/${blog.id}`,
      { title: blog.title, category_id: categoryId, image: '' },
      auth,
    );
    expect(again.status).toBe(200);
    expect(exists(newCover)).toBe(true); // the other article still shows it
    expect((await call(server, `/api/blogs/${kept.id}`)).status).toBe(200);

    expect((await call(server, `/api/blogs/${blog.id}`, { method: 'DELETE', headers: auth })).status).toBe(200);
    expect(exists(oldCover)).toBe(false);
    expect(exists(newCover)).toBe(true);
  });
});

describe('the disk afterwards', () => {
  it('has only finished upload files under UPLOADS_DIR and nothing new elsewhere', () => {
    const files = listFiles(server.uploadsDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(file, 'no temp or dot files').not.toMatch(/(^|\/)\./);
      expect(file).toMatch(/^(demo\/[\w.-]+|images\/[a-z0-9]+-w(480|960|1600)\.webp|pdfs\/[a-z0-9]+\.pdf)$/);
    }
    // Each image upload is three files, never one or two.
    const images = files.filter((f) => f.startsWith('images/'));
    const ids = new Set(images.map((f) => /images\/([a-z0-9]+)-w/.exec(f)![1]));
    expect(images.length).toBe(ids.size * 3);
    expect(listDataDir()).toEqual(dataDirBefore);
    expect(listFiles(repoUploads)).toEqual(repoUploadsBefore);
  });
});
