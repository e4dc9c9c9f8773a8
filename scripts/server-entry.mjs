// Plain JavaScript on purpose: `npm start` loads it in the server's first process, which stays
// free of Node's TypeScript stripping (see compile-server.ts).

/** The compiled production server's entry, relative to the build directory (dist). */
export const COMPILED_MAIN = 'node/src/server/front/main.js';
