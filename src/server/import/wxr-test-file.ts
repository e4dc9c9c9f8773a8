/** A minimal WXR 1.2 document around the given items, for tests. */
export function wxrDocument(items: string, origin = 'https://old.example'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Old site</title><link>${origin}</link><wp:wxr_version>1.2</wp:wxr_version>
<wp:base_site_url>${origin}</wp:base_site_url><wp:base_blog_url>${origin}</wp:base_blog_url>
<wp:author><wp:author_login>ann</wp:author_login><wp:author_display_name><![CDATA[Ann Author]]></wp:author_display_name></wp:author>
${items}
</channel></rss>`;
}
