import { searchHref } from '../../shared/site-map/paths.ts';

/**
 * The nav search is a plain GET form to /blogs, so it works before any script and without one.
 * With the script, blank or whitespace-only text is ignored (docs/product.md#validation-rules) and the address
 * is the tidy /blogs?search=... of docs/product.md#public-screens.
 */
export function ignoreBlankSearches(form: HTMLFormElement): void {
  form.addEventListener('submit', (event) => {
    const input = form.elements.namedItem('search');
    if (!(input instanceof HTMLInputElement)) return;
    event.preventDefault();
    const href = searchHref(input.value);
    if (href) window.location.assign(href);
  });
}
