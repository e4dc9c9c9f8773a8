import type { NewMail } from '../db/repositories/mail-queue.ts';

/** The texts of the mails the site sends: plain text, the link on a line of its own. */

export function passwordResetMail(input: { to: string; siteTitle: string; link: string }): NewMail {
  return {
    to: input.to,
    kind: 'password_reset',
    subject: `Reset your password on ${input.siteTitle}`,
    text: [
      `Someone (we hope you) asked to reset the password of your account on ${input.siteTitle}.`,
      '',
      'To choose a new password, open this link within 30 minutes:',
      '',
      input.link,
      '',
      'The link works once. Setting a new password logs you out everywhere.',
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}

export function emailChangeMail(input: { to: string; siteTitle: string; username: string; link: string }): NewMail {
  return {
    to: input.to,
    kind: 'email_change',
    subject: `Confirm your new email on ${input.siteTitle}`,
    text: [
      `The account ${input.username} on ${input.siteTitle} asked to use this address from now on.`,
      '',
      'To confirm it, open this link within 30 minutes:',
      '',
      input.link,
      '',
      'Until you do, the account keeps its old address. If you did not ask for this, ignore this mail.',
    ].join('\n'),
  };
}

export function moderationDigestMail(input: { to: string; siteTitle: string; waiting: number; link: string }): NewMail {
  const comments = input.waiting === 1 ? '1 comment waits' : `${input.waiting} comments wait`;
  return {
    to: input.to,
    kind: 'moderation_digest',
    subject: `${comments} for moderation on ${input.siteTitle}`,
    text: [
      `${comments} for moderation on ${input.siteTitle}. Readers do not see them until you approve them.`,
      '',
      'Review them here:',
      '',
      input.link,
      '',
      'You get at most one of these mails an hour. Turn them off in Settings → Accounts.',
    ].join('\n'),
  };
}

export function emailVerificationMail(input: { to: string; siteTitle: string; username: string; link: string }): NewMail {
  return {
    to: input.to,
    kind: 'email_verify',
    subject: `Confirm your email on ${input.siteTitle}`,
    text: [
      `Welcome to ${input.siteTitle}, ${input.username}.`,
      '',
      'To confirm this is your email and start using your account, open this link within 30 minutes:',
      '',
      input.link,
      '',
      'If the link has expired, log in with your email and password to get a new one.',
      'If you did not sign up, ignore this mail.',
    ].join('\n'),
  };
}
