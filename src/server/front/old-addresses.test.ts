import { describe, expect, it } from 'vitest';
import { oldAddressOf } from './old-addresses.ts';

const unknownFirstSegment = (url: string) => !/^\/(?:$|\?|blog\b|blogs\b|about\b|uploads\b)/.test(url);

describe('oldAddressOf', () => {
  it("reads WordPress's ?p= and ?page_id= on the home page as the redirect table spells them, as a page of the site", () => {
    expect(oldAddressOf('/?p=123', unknownFirstSegment)).toEqual({ path: '/?p=123', kind: 'home-query' });
    expect(oldAddressOf('/?page_id=7', unknownFirstSegment)).toEqual({ path: '/?p=7', kind: 'home-query' });
    expect(oldAddressOf('/?utm_source=x&p=42', unknownFirstSegment)).toEqual({ path: '/?p=42', kind: 'home-query' });
  });

  it('leaves the home page and its own queries alone', () => {
    expect(oldAddressOf('/', unknownFirstSegment)).toBeNull();
    expect(oldAddressOf('/?page=2', unknownFirstSegment)).toBeNull();
    expect(oldAddressOf('/?p=abc', unknownFirstSegment)).toBeNull();
  });

  it('reads an address no route claims, normalised (case, trailing slash), as one to pace like its 404', () => {
    expect(oldAddressOf('/2024/06/My-Slug/', unknownFirstSegment)).toEqual({ path: '/2024/06/my-slug', kind: 'unknown-path' });
    expect(oldAddressOf('/slug/', unknownFirstSegment)).toEqual({ path: '/slug', kind: 'unknown-path' });
  });

  it("never looks up the site's own addresses", () => {
    expect(oldAddressOf('/blog/12', unknownFirstSegment)).toBeNull();
    expect(oldAddressOf('/about', unknownFirstSegment)).toBeNull();
    expect(oldAddressOf('/uploads/x.png', unknownFirstSegment)).toBeNull();
  });
});
