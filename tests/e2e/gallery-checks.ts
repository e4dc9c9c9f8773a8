/**
 * What a person would see as broken on a screen, measured in the page (tests/e2e/gallery.spec.ts
 * runs it at every width and theme): sideways scrolling, a header on two rows, an image without
 * its dimensions, text drawn over other text or over a picture or a field. The function is sent
 * to the browser whole (page.evaluate), so it uses nothing from outside its own body.
 */

export interface CheckOptions {
  /** From 1024 px the site header's bar is one row. */
  headerOneRow: boolean;
}

export function findLayoutProblems(options: CheckOptions): string[] {
  const problems: string[] = [];
  const width = document.documentElement.clientWidth;

  const name = (el: Element): string => {
    const classes = [...el.classList].slice(0, 2).join('.');
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${classes ? `.${classes}` : ''}>${text ? ` "${text}"` : ''}`;
  };
  const shown = (el: Element): boolean =>
    el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true });

  interface Box {
    left: number;
    top: number;
    right: number;
    bottom: number;
  }
  // The part of a box its scrolling or clipping ancestors let through (null: none of it).
  const clipped = (from: Element | null, box: Box): Box | null => {
    // Read field by field: a DOMRect's edges are getters, which a spread does not copy.
    const out = { left: box.left, top: box.top, right: box.right, bottom: box.bottom };
    for (let el = from; el && el !== document.documentElement; el = el.parentElement) {
      const style = getComputedStyle(el);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible' || style.clipPath !== 'none') {
        const clip = el.getBoundingClientRect();
        out.left = Math.max(out.left, clip.left);
        out.top = Math.max(out.top, clip.top);
        out.right = Math.min(out.right, clip.right);
        out.bottom = Math.min(out.bottom, clip.bottom);
      }
      if (style.position === 'fixed') break;
    }
    return out.right - out.left > 1 && out.bottom - out.top > 1 ? out : null;
  };

  // Sideways scrolling: the page is wider than the window. Name the outermost boxes that stick out.
  const scrollWidth = document.documentElement.scrollWidth;
  if (scrollWidth > width + 1) {
    const outside = [...document.body.querySelectorAll('*')].filter((el) => {
      if (!shown(el)) return false;
      const box = el.getBoundingClientRect();
      return box.width > 0 && (box.right > width + 1 || box.left < -1) && clipped(el.parentElement, box) !== null;
    });
    const outermost = outside.filter((el) => !outside.some((other) => other !== el && other.contains(el)));
    problems.push(
      `the page scrolls sideways (${scrollWidth} px in a ${width} px window): ${outermost.slice(0, 3).map(name).join(', ')}`,
    );
  }

  // The header's first bar on one row (tests/e2e/site-header.spec.ts checks the same, with long names).
  const bar = document.querySelector('.site-header .nav-bar');
  if (options.headerOneRow && bar) {
    const boxes = [...bar.children]
      .filter(shown)
      .map((el) => el.getBoundingClientRect())
      .filter((box) => box.width > 0);
    if (boxes.length && Math.max(...boxes.map((b) => b.top)) >= Math.min(...boxes.map((b) => b.bottom)))
      problems.push('the header bar wraps onto a second row');
  }

  // A control cut off by the box it scrolls in sideways (a wide table in its wrapper): the page
  // does not scroll, but the reader sees half a button and must find the scrollbar.
  const cut = new Set<Element>();
  for (const control of document.body.querySelectorAll('button, a[href], input:not([type="hidden"]), select, textarea')) {
    if (!shown(control)) continue;
    const box = control.getBoundingClientRect();
    if (box.width === 0) continue;
    for (let el = control.parentElement; el && el !== document.body; el = el.parentElement) {
      const overflowX = getComputedStyle(el).overflowX;
      if (overflowX !== 'auto' && overflowX !== 'scroll') continue;
      const wrap = el.getBoundingClientRect();
      if ((box.right > wrap.right + 1 || box.left < wrap.left - 1) && !cut.has(el)) {
        cut.add(el);
        problems.push(
          `${name(control)} is cut off by ${name(el).slice(0, 30)}, which scrolls sideways (${el.scrollWidth} px in ${el.clientWidth} px)`,
        );
      }
      break;
    }
  }

  for (const img of document.images) {
    if (!img.getAttribute('width') || !img.getAttribute('height'))
      problems.push(`an image without width and height (it makes the page jump as it loads): ${img.getAttribute('src')}`);
  }

  // Words in a left-to-right script laid out right to left (an English sentence of the site's
  // own words, or someone's English text, in a right-to-left site): the full stop at the end of
  // the sentence is drawn at its start. Found by where the closing mark sits against the letter
  // before it; the same for a field's placeholder, whose box takes the field's direction.
  const closing = /[A-Za-z][.!?:…]+$/;
  const misplaced = new Set<Element>();
  const textWalker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const glyph = document.createRange();
  for (let node = textWalker.nextNode(); node; node = textWalker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent?.trimEnd() ?? '';
    if (!el || misplaced.has(el) || !closing.test(text) || el.closest('script, style, noscript, template') || !shown(el))
      continue;
    const end = text.length;
    const letterAt = text.search(/[A-Za-z][.!?:…]+$/);
    glyph.setStart(node, letterAt);
    glyph.setEnd(node, letterAt + 1);
    const letter = glyph.getBoundingClientRect();
    glyph.setStart(node, end - 1);
    glyph.setEnd(node, end);
    const mark = glyph.getBoundingClientRect();
    const sameLine = Math.abs(letter.top - mark.top) < letter.height / 2;
    // Words hidden for screen readers only (clipped to nothing) are never seen.
    if (letter.width > 0 && mark.width > 0 && sameLine && mark.right <= letter.left + 1 && clipped(el, mark)) {
      misplaced.add(el);
      problems.push(`${name(el)}: its closing "${text.slice(-1)}" is drawn at the start of the line`);
    }
  }
  for (const field of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
    'input[placeholder], textarea[placeholder]',
  )) {
    if (shown(field) && !field.value && closing.test(field.placeholder) && getComputedStyle(field).direction === 'rtl')
      problems.push(`${name(field)}: its placeholder "${field.placeholder}" shows its closing mark at the start`);
  }

  // Text over text, or over a picture or a field. Each text node's line boxes against every other
  // box; boxes of one element and its own descendants never count, nor parts of a slide or video
  // panel whose caption is meant to sit on the picture.
  interface Item {
    el: Element;
    box: Box;
    overlay: Element | null;
  }
  const items: Item[] = [];
  const overlayOf = (el: Element) => el.closest('.carousel, .video-preview');
  // Bars fixed to the window with a background of their own (the phone's bar of social buttons):
  // the page scrolls behind them as behind the browser's toolbar, so what lies under one is out of
  // sight, not overlapped, and the bar's own buttons sit on the bar.
  const opaqueBars = [...document.body.querySelectorAll('*')]
    .filter((el) => {
      const style = getComputedStyle(el);
      return style.position === 'fixed' && shown(el) && !/rgba\([^)]*,\s*0\)|transparent/.test(style.backgroundColor);
    })
    .map((el) => ({ el, box: el.getBoundingClientRect() }))
    // A bar runs across the window; a round button with a background is not one.
    .filter((bar) => bar.box.width >= width / 2);
  const behindBar = (el: Element, box: Box) =>
    opaqueBars.some(
      (bar) =>
        !bar.el.contains(el) &&
        box.left < bar.box.right &&
        bar.box.left < box.right &&
        box.top < bar.box.bottom &&
        bar.box.top < box.bottom,
    );
  const onBar = (el: Element) => opaqueBars.some((bar) => bar.el !== el && bar.el.contains(el));
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent?.trim() || el.closest('script, style, noscript, template, option') || !shown(el)) continue;
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) {
      const box = clipped(el, rect);
      if (box && !behindBar(el, box)) items.push({ el, box, overlay: overlayOf(el) });
    }
  }
  // The floating social buttons count as boxes too: they must never sit on text.
  for (const el of document.body.querySelectorAll(
    'img, input:not([type="hidden"]), select, textarea, iframe, video, .social-float a, .social-toggle',
  )) {
    if (!shown(el) || onBar(el)) continue;
    const box = clipped(el.parentElement, el.getBoundingClientRect());
    if (box && !behindBar(el, box)) items.push({ el, box, overlay: overlayOf(el) });
  }
  const reported = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const a = items[i]!;
    for (let j = i + 1; j < items.length; j++) {
      const b = items[j]!;
      if (a.el === b.el || a.el.contains(b.el) || b.el.contains(a.el)) continue;
      if (a.overlay && a.overlay === b.overlay) continue;
      const across = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
      const down = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
      // Line boxes of neighbouring lines may touch by a few pixels; a real overlap covers a good part of a line.
      const smaller = Math.min(a.box.bottom - a.box.top, b.box.bottom - b.box.top);
      if (across > 2 && down > 2 && down > 0.35 * smaller) {
        const pair = `${name(a.el)} overlaps ${name(b.el)}`;
        if (!reported.has(pair)) problems.push(pair);
        reported.add(pair);
      }
    }
  }
  return problems;
}
