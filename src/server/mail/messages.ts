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
