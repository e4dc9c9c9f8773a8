/**
 * docs/product.md#validation-rules: long-form YouTube watch URLs and youtu.be short links become embed URLs,
 * an invalid URL gives no video, any other address is used as it is.
 */
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

export function toEmbedUrl(link: string | null | undefined): string | null {
  if (!link) return null;
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname.toLowerCase().replace(/^www\.|^m\./, '');
  if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    if (url.pathname === '/watch') {
      const id = url.searchParams.get('v');
      return id && YOUTUBE_ID.test(id) ? `https://www.youtube.com/embed/${id}` : null;
    }
    const embed = /^\/(?:embed|shorts|live)\/([A-Za-z0-9_-]{11})\/?$/.exec(url.pathname);
    if (embed) return `https://www.youtube.com/embed/${embed[1]}`;
  }
  if (host === 'youtu.be') {
    const id = url.pathname.slice(1).replace(/\/$/, '');
    return YOUTUBE_ID.test(id) ? `https://www.youtube.com/embed/${id}` : null;
  }
  return url.href;
}

/** The YouTube video id of an embed URL made by toEmbedUrl, for the click-to-play preview. */
export function youtubeIdOf(embedUrl: string | null): string | null {
  if (!embedUrl) return null;
  const match = /^https:\/\/www\.youtube\.com\/embed\/([A-Za-z0-9_-]{11})$/.exec(embedUrl);
  return match ? match[1]! : null;
}
