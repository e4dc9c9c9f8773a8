import type { InfoPageSlug } from '../../shared/validation/info-page.ts';
import { SITE_PAGES } from '../../shared/site-map/paths.ts';

/**
 * The About and Contact texts a new site starts with (the texts the pages had before the admin
 * could write them), with the site's title filled in. Shown until the admin's first save.
 */
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function defaultInfoPageHtml(slug: InfoPageSlug, siteTitle: string): string {
  const site = escapeHtml(siteTitle);
  if (slug === 'about') {
    return [
      `<p>${site} is a small team of teachers and former students who believe good study material should be free and easy to find. Every article explains one topic clearly, works through an example step by step and ends with practice you can do on your own.</p>`,
      '<h2>What you will find here</h2>',
      '<ul>',
      '<li>Short, focused articles for every subject, grouped by category.</li>',
      '<li>Video lessons for topics that are easier to see than to read.</li>',
      '<li>PDF notes you can download, print and keep in your revision folder.</li>',
      '<li>Comments under every article, where readers ask questions and help each other.</li>',
      '</ul>',
      '<h2>How we write</h2>',
      '<p>We start from definitions, use plain language and check every worked example twice. When a reader spots a mistake, we fix it and thank them. If something is unclear, leave a comment: it helps the next reader too.</p>',
      `<p><a href="${SITE_PAGES.blogs}">Browse all articles</a> or <a href="${SITE_PAGES.contact}">get in touch</a>.</p>`,
    ].join('');
  }
  return [
    '<p>We read every message and usually answer within two working days.</p>',
    '<h2>Questions about an article</h2>',
    '<p>The quickest way is to leave a comment under the article itself: other readers often answer too, and everyone benefits from the reply.</p>',
    '<h2>Everything else</h2>',
    '<p>Write to <a href="mailto:hello@example.org">hello@example.org</a> for corrections, suggestions for new topics, or if you would like to contribute study notes.</p>',
    '<p>You can also find us through the social links at the bottom of every page.</p>',
  ].join('');
}
