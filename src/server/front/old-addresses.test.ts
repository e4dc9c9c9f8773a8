import { describe, expect, it } from 'vitest';
import { oldAddressOf } from './old-addresses.ts';

const unknownFirstSegment = (url: string) => !/^\/(?:$|\?|blog\b|blogs\b|about\b|uploads\b)/.test(url);

describe('oldAddressOf', () => {
  it("reads WordPress's ?p= and ?page_id= on the home page as the redirect table spells them", () => {
    expect(oldAddressOf('/?p=123', unknownFirstSegment)).toBe('/?p=123');
    expect(oldAddressOf('/?page_id=7', unknownFirstSegment)).toBe('/?p=7');
    expect(oldAddressOf('/?utm_source=x&p=42', unknownFirstSegment)).toBe('/?p=42');
  });

  it('leaves the home page and its own queries alone', () => {
    expect(oldAddressOf('/', unknownFirstSegment)).toBeNull();
    expect(oldAddressOf('/?page=2', unknownFirstSegment)).toBeNull();
    expect(oldAddressOf('/?p=abc', unknownFirstSegment)).toBeNull();
  });

  it('reads an address no route claims, normalised (case, trailing slash)', () => {
    expect(oldAddressOf('/2024/06/My-Slug/', unknownFirstSegment)).toBe('/2024/06/my-slug');
    expect(oldAddressOf('/slug/', unknownFirstSegment)).toBe('/slug');
  });

  it("never looks up the site's own addresses", () => {
    expect(oldAddressOf('/blog/12', unknownFirstSegment)).toBeNull();
    expect(oldAddressOf('/about', unknownFirstSegment)).toBeNull();
    expect(oldAddressOf('/uploads/x.png', unknownFirstSegment)).toBeNull();
  });
});
