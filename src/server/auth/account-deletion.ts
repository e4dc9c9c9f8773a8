import type { AppContext } from '../context.ts';
import { deleteUserComments, listBlogsCommentedBy, renameUserComments } from '../db/repositories/comments.ts';
import { deleteUser } from '../db/repositories/users.ts';
import { AppError, throwIfInvalid } from '../errors.ts';
import { tag } from '../page-store/site-tags.ts';
import { DELETED_USER_NAME } from '../../shared/validation/account-policy.ts';
import { validateDeleteAccount } from '../../shared/validation/account-settings.ts';
import { readAccountPolicy } from './account-policy.ts';
import type { Signed } from './account-self.ts';
import { confirmCurrentPassword } from './current-password.ts';

/**
 * Deleting one's own account (the current password required): its sessions and links go with it,
 * its comments are kept as "deleted user" or removed, as the owner chose in Settings
 * (account-policy.ts), and the articles showing them are refreshed. Admins cannot delete
 * themselves here: the site must keep an owner (`npm run admin` manages admin accounts).
 */
export async function deleteOwnAccount(
  app: AppContext,
  signed: Signed,
  body: Record<string, unknown>,
): Promise<{ message: string }> {
  const startedAt = performance.now();
  const input = throwIfInvalid(validateDeleteAccount(body));
  if (signed.user.is_admin === 1)
    throw new AppError('forbidden', 'An admin account cannot be deleted from here, so the site always keeps an owner.');
  await confirmCurrentPassword(app, signed.user, input.current_password, signed.clientIp);
  const policy = await readAccountPolicy(app.db);
  const blogIds = await app.db.transaction().execute(async (trx) => {
    const ids = await listBlogsCommentedBy(trx, signed.user.id);
    if (policy.deleted_comments === 'remove') await deleteUserComments(trx, signed.user.id);
    else await renameUserComments(trx, signed.user.id, DELETED_USER_NAME);
    await deleteUser(trx, signed.user.id);
    return ids;
  });
  // Taken down, not merely edited: no page or shared cache may show the old name once this answers.
  if (blogIds.length > 0)
    await app.pageCache.invalidate(
      [],
      startedAt,
      blogIds.map((id) => tag.comments(id)),
    );
  return {
    message:
      policy.deleted_comments === 'remove'
        ? 'Your account and your comments were deleted.'
        : 'Your account was deleted. Your comments stay, signed "deleted user".',
  };
}
