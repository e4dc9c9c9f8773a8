import fs from 'node:fs';
import { Readable } from 'node:stream';
import { route } from '../../../server/api/route.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { exportForDownload } from '../../../server/export/site-transfer.ts';

/**
 * GET /api/admin/export (admin): the whole site as one archive to download (docs/export.md);
 * `?format=markdown`: one Markdown file per article with its uploads instead.
 */
export const { GET, ALL } = route({
  GET: async (context) => {
    requireAdmin(context);
    const format = context.url.searchParams.get('format') === 'markdown' ? 'markdown' : 'archive';
    const download = await exportForDownload(context.locals.app, format);
    const stream = fs.createReadStream(download.file);
    // The temporary copy goes once it is sent (or the reader went away).
    stream.once('close', download.dispose);
    return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
      headers: {
        'Content-Type': 'application/gzip',
        'Content-Length': String(download.size),
        'Content-Disposition': `attachment; filename="${download.name}"`,
        'Cache-Control': 'no-store',
      },
    });
  },
});
