import { json } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { readLimitedBody, refuseDeclaredTooLarge } from '../../../server/api/body.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { invalidInput } from '../../../server/errors.ts';
import { importUploadedFile } from '../../../server/export/site-transfer.ts';
import { answerWithProgress, wantsProgress } from '../../../server/api/progress-answer.ts';

const TOO_LARGE = `The file is larger than ${BODY_LIMITS.import / 1024 / 1024} MB: import it with npm run import on the server.`;

/**
 * POST /api/admin/import (admin), the file itself as the body (a WordPress WXR, a Ghost JSON or
 * this site's export archive); `?dry_run=1` checks and reports without writing. 200 with the
 * report; 422 for a file that is refused (nothing written); 413 past the limit. Asked with
 * `Accept: application/x-ndjson`, an import that gets to its articles answers with its progress
 * (answerWithProgress).
 */
export const { POST, ALL } = route({
  POST: async (context) => {
    const admin = requireAdmin(context);
    await refuseDeclaredTooLarge(context.request, BODY_LIMITS.import, TOO_LARGE);
    const bytes = await readLimitedBody(context.request, BODY_LIMITS.import, TOO_LARGE);
    if (bytes.length === 0) throw invalidInput('Choose a file to import.', { file: 'Choose a file to import.' });
    const dryRun = context.url.searchParams.get('dry_run') === '1';
    if (!wantsProgress(context.request)) return json(await importUploadedFile(context.locals.app, admin, bytes, dryRun));
    return answerWithProgress(context, (onProgress) => importUploadedFile(context.locals.app, admin, bytes, dryRun, onProgress));
  },
});
