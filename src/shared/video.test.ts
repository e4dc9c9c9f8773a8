import { describe, expect, it } from 'vitest';
import { toEmbedUrl, youtubeIdOf } from './video.ts';

const EMBED = 'https://www.youtube.com/embed/dQw4w9WgXcQ';

describe('toEmbedUrl (docs/product.md#validation-rules)', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
    ['https://youtube.com/watch?v=dQw4w9WgXcQ'],
    ['http://www.youtube.com/watch?v=dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ'],
    ['https://www.youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=42s'],
    ['https://WWW.YouTube.com/watch?v=dQw4w9WgXcQ'],
    ['  https://www.youtube.com/watch?v=dQw4w9WgXcQ  '],
  ])('turns the watch URL %s into an embed URL', (link) => {
    expect(toEmbedUrl(link)).toBe(EMBED);
  });

  it.each([['https://youtu.be/dQw4w9WgXcQ'], ['https://youtu.be/dQw4w9WgXcQ/'], ['https://youtu.be/dQw4w9WgXcQ?t=10']])(
    'turns the short link %s into an embed URL',
    (link) => {
      expect(toEmbedUrl(link)).toBe(EMBED);
    },
  );

  it.each([
    ['https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ'],
    ['https://youtube.com/shorts/dQw4w9WgXcQ/'],
    ['https://www.youtube.com/live/dQw4w9WgXcQ'],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
  ])('normalizes the embed, shorts or live path %s', (link) => {
    expect(toEmbedUrl(link)).toBe(EMBED);
  });

  it.each([
    ['not a url'],
    ['youtube.com/watch?v=dQw4w9WgXcQ'],
    ['://missing-scheme'],
    ['javascript:alert(1)'],
    ['JavaScript:alert(document.cookie)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['ftp://example.org/video.mp4'],
  ])('gives no video for the invalid or unsafe URL %s', (link) => {
    expect(toEmbedUrl(link)).toBeNull();
  });

  it.each([
    ['https://www.youtube.com/watch?v=short'],
    ['https://www.youtube.com/watch'],
    ['https://youtu.be/'],
    ['https://youtu.be/abc'],
  ])('gives no video for the YouTube link %s without a valid video id', (link) => {
    expect(toEmbedUrl(link)).toBeNull();
  });

  it('gives no video for an empty or missing link', () => {
    expect(toEmbedUrl('')).toBeNull();
    expect(toEmbedUrl(null)).toBeNull();
    expect(toEmbedUrl(undefined)).toBeNull();
  });

  it.each([
    ['https://player.vimeo.com/video/76979871', 'https://player.vimeo.com/video/76979871'],
    ['https://example.org/media/lecture.mp4', 'https://example.org/media/lecture.mp4'],
    ['https://www.youtube.com/playlist?list=PL123', 'https://www.youtube.com/playlist?list=PL123'],
  ])('uses any other address %s as it is', (link, expected) => {
    expect(toEmbedUrl(link)).toBe(expected);
  });
});

describe('youtubeIdOf', () => {
  it('reads the id of an embed URL made by toEmbedUrl', () => {
    expect(youtubeIdOf(toEmbedUrl('https://youtu.be/aqz-KE-bpKQ'))).toBe('aqz-KE-bpKQ');
  });

  it('gives null for other addresses', () => {
    expect(youtubeIdOf('https://player.vimeo.com/video/76979871')).toBeNull();
    expect(youtubeIdOf('https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1')).toBeNull();
    expect(youtubeIdOf(null)).toBeNull();
  });
});
