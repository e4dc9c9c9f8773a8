/**
 * The guard behind "the site map owns every URL" (src/shared/site-map/README.md): a public
 * address spelled out anywhere but src/shared/site-map is refused by `npm run lint`, so the
 * next `/blog/${id}` cannot drift from the address the page store keeps. ESLint reads the
 * TypeScript and JavaScript (the rule below); ESLint does not read `.astro` files, so
 * check-site-paths.ts looks through those for the same addresses.
 *
 * A comparison with an address (`pathname === '/blogs'`) reads a request, builds nothing, and
 * is let through.
 */
const PUBLIC_PATH = new RegExp(
  '^/(?:' +
    [
      'blog/',
      String.raw`\?page=`,
      String.raw`(?:blogs|download|about|contact|login|logout|register|forgot-password|reset-password|confirm-email|setup|account|library|offline)(?:[?#/]|$)`,
      String.raw`(?:rss\.xml|sitemap\.xml|robots\.txt|manifest\.webmanifest)$`,
      'admin/(?:edit-blog|preview)/',
      String.raw`admin/pages\?`,
    ].join('|') +
    ')',
);

/** Whether a string (or a template's text between its `${}`s) starts with a public address. */
export function isHandBuiltPath(text) {
  return PUBLIC_PATH.test(text);
}

const COMPARISONS = new Set(['===', '!==', '==', '!=']);
const isComparison = (node) => node?.type === 'BinaryExpression' && COMPARISONS.has(node.operator);

const noHandBuiltPath = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      handBuilt:
        "'{{path}}' is a public address built by hand: build it with src/shared/site-map/paths.ts (articleHref, blogsHref, homeHref, SITE_PAGES, ...).",
    },
  },
  create(context) {
    const report = (node, path) => context.report({ node, messageId: 'handBuilt', data: { path } });
    return {
      Literal(node) {
        if (typeof node.value === 'string' && isHandBuiltPath(node.value) && !isComparison(node.parent)) report(node, node.value);
      },
      TemplateElement(node) {
        const text = node.value.cooked ?? node.value.raw;
        if (isHandBuiltPath(text) && !isComparison(node.parent?.parent)) report(node, text);
      },
    };
  },
};

/** The flat-config entry: every source file but the site map itself and the tests, which assert addresses as readers see them. */
export const sitePathsConfig = {
  files: ['src/**/*.{ts,tsx,js,mjs}', 'db/**/*.{ts,js,mjs}', 'scripts/**/*.{ts,js,mjs}'],
  ignores: ['src/shared/site-map/**', '**/*.test.{ts,tsx}'],
  plugins: { 'site-paths': { rules: { 'no-hand-built-path': noHandBuiltPath } } },
  rules: { 'site-paths/no-hand-built-path': 'error' },
};
