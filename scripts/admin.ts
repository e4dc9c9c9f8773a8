// Creates an admin account or promotes an existing one (DATABASE_PATH picks the database).
//   npm run admin -- --email you@example.org [--password 'a long passphrase']
// Without --password an existing account keeps its password and a new one gets a generated
// password, printed once. Prefer leaving --password out on shared machines: the shell history
// and the process list can show it.
//   npm run admin -- --setup-link
// Prints the first-run setup link while the site has no admin (PUBLIC_ORIGIN gives its address).
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { migrateToLatest, openDatabase } from '../src/server/db/client.ts';
import { ensureAdmin } from '../src/server/auth/admin-account.ts';
import { ensureSetupLink } from '../src/server/auth/owner-setup.ts';
import { checkEmail, checkNewPassword } from '../src/shared/validation/account.ts';

const usage = [
  'Usage: npm run admin -- --email you@example.org [--password "a long passphrase"]',
  '       npm run admin -- --setup-link',
].join('\n');

let values: {
  email?: string | undefined;
  password?: string | undefined;
  'setup-link'?: boolean | undefined;
  help?: boolean | undefined;
};
try {
  ({ values } = parseArgs({
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'setup-link': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const setupLink = values['setup-link'] === true;
const problem = setupLink
  ? values.email !== undefined || values.password !== undefined
    ? '--setup-link takes no other option.'
    : null
  : (checkEmail(values.email) ?? (values.password !== undefined ? checkNewPassword(values.password) : null));
if (problem) {
  console.error(`${problem}\n${usage}`);
  process.exit(2);
}

const config = loadConfig();
const { db } = openDatabase(config.databasePath);
try {
  await migrateToLatest(db);
  if (setupLink) {
    const link = await ensureSetupLink(db, config.publicOrigin);
    if (link) console.log(`Open ${link} to create the owner's account (works once, while the site has no admin).`);
    else {
      console.log(`${config.databasePath} already has an admin: there is no setup link. Log in at ${config.publicOrigin}/login.`);
      process.exitCode = 1;
    }
  } else {
    const result = await ensureAdmin(db, values.email!.trim(), values.password);
    const what = {
      created: 'created as an admin',
      updated: 'is an admin; password changed',
      promoted: 'promoted to admin (password unchanged)',
      unchanged: 'is already an admin (nothing changed)',
    }[result.action];
    console.log(`${result.email} ${what} in ${config.databasePath}`);
    if (result.generatedPassword) console.log(`Generated password (shown once): ${result.generatedPassword}`);
  }
} finally {
  await db.destroy();
}
