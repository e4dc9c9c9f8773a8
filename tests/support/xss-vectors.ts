/**
 * Cross-site scripting vectors for tests/e2e/xss.spec.ts. Every vector that manages to run sets
 * `top.__xss` (or opens a dialog), so a browser test can tell whether any script ran, including
 * inside same-origin frames. Sources: the OWASP XSS filter evasion cheat sheet, the html5sec.org
 * list and the published DOMPurify / sanitize-html mutation-XSS bypasses.
 */

export interface XssVector {
  name: string;
  payload: string;
}

/** What a vector runs when it gets through. */
export const MARK = 'top.__xss=1';

const v = (name: string, payload: string): XssVector => ({ name, payload });

export const XSS_VECTORS: XssVector[] = [
  // Script elements
  v('script tag', `<script>${MARK}</script>`),
  v('script tag, upper case, src data:', `<SCRIPT SRC=data:text/javascript,${MARK}></SCRIPT>`),
  v('script in svg', `<svg><script>${MARK}</script></svg>`),
  v('script split by a nested tag', `<scr<script>ipt>${MARK}</scr</script>ipt>`),
  v('double angle bracket', `<<script>script>${MARK}<</script>/script>`),
  v('script with a dialog', '<script>alert(1)</script>'),

  // Event handlers
  v('img onerror', `<img src=x onerror=${MARK}>`),
  v('img onerror quoted, dialog', '<img src="x" onerror="alert(1)">'),
  v('svg onload', `<svg onload=${MARK}>`),
  v('svg onload, slash, unclosed', `<svg/onload=${MARK}//`),
  v('body onload', `<body onload=${MARK}>`),
  v('details ontoggle', `<details open ontoggle=${MARK}>x</details>`),
  v('input autofocus onfocus', `<input autofocus onfocus=${MARK}>`),
  v('video source onerror', `<video><source onerror=${MARK}></video>`),
  v('audio onerror', `<audio src=x onerror=${MARK}>`),
  v('svg animate onbegin', `<svg><animate onbegin=${MARK} attributeName=x dur=1s>`),
  v('marquee onstart', `<marquee onstart=${MARK}>x</marquee>`),
  v('a onclick', `<a href="#" onclick="${MARK}">x</a>`),
  v('img eval of src', '<img src=x:alert(alt) onerror=eval(src) alt=0>'),
  v('style onload', `<style onload=${MARK}></style>`),

  // javascript: and data: addresses
  v('a javascript:', `<a href="javascript:${MARK}">click</a>`),
  v('a JaVaScRiPt: with dialog', '<a href="JaVaScRiPt:alert(1)">x</a>'),
  v('a javascript: entity encoded', `<a href="&#106;avascript:${MARK}">x</a>`),
  v('a javascript: hex entities', `<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;${MARK}">x</a>`),
  v('a javascript: with a tab', `<a href="java&#x09;script:${MARK}">x</a>`),
  v('a javascript: with a leading space', `<a href=" javascript:${MARK}">x</a>`),
  v('a data:text/html', '<a href="data:text/html,<script>alert(1)</script>">x</a>'),
  v('iframe javascript:', `<iframe src="javascript:${MARK}"></iframe>`),
  v('form action javascript:', `<form action="javascript:${MARK}"><button>go</button></form>`),
  v('button formaction', `<form><button formaction="javascript:${MARK}">go</button></form>`),
  v('object data:', '<object data="data:text/html,<script>alert(1)</script>"></object>'),
  v('embed javascript:', `<embed src="javascript:${MARK}">`),
  v('img src javascript: with CR', '<IMG SRC="jav&#x0D;ascript:alert(1);">'),

  // SVG
  v('svg a xlink:href', `<svg><a xlink:href="javascript:${MARK}"><text y="20">x</text></a></svg>`),
  v(
    'svg use data:',
    `<svg><use href="data:image/svg+xml,<svg id='x' xmlns='http://www.w3.org/2000/svg'><image href='1' onerror='${MARK}'/></svg>#x"/></svg>`,
  ),
  v('svg foreignObject', `<svg><foreignObject><img src=x onerror=${MARK}></foreignObject></svg>`),

  // Frames, meta and base
  v('iframe srcdoc script', `<iframe srcdoc="<script>${MARK}</script>"></iframe>`),
  v('iframe srcdoc encoded', `<iframe srcdoc="&lt;img src=x onerror=${MARK}&gt;"></iframe>`),
  v(
    'youtube iframe with srcdoc',
    `<iframe src="https://www.youtube.com/embed/aaaaaaaaaaa" srcdoc="<script>${MARK}</script>"></iframe>`,
  ),
  v('iframe to another site', '<iframe src="https://evil.example/"></iframe>'),
  v('meta refresh javascript:', `<meta http-equiv="refresh" content="0;url=javascript:${MARK}">`),
  v('base href', '<base href="https://evil.example/">'),

  // Breaking out of where the text lands
  v('attribute breakout', `"><script>${MARK}</script>`),
  v('single-quote attribute breakout', `'><img src=x onerror=${MARK}>`),
  v('title breakout', `</title><script>${MARK}</script>`),
  v('textarea breakout', `</textarea><img src=x onerror=${MARK}>`),
  v('script (JSON-LD, island props) breakout', `</script><script>${MARK}</script>`),
  v('JSON string breakout', `"}]</script><img src=x onerror=${MARK}>`),
  v('style breakout', `</style><img src=x onerror=${MARK}>`),
  v('comment breakout', `<!--<img src="--><img src=x onerror=${MARK}//">`),
  v('quote soup', `<img """><script>${MARK}</script>">`),

  // Style
  v('style expression', `<div style="width:expression(${MARK})">x</div>`),
  v('style url javascript:', `<div style="background:url(javascript:${MARK})">x</div>`),
  v('style element import', "<style>@import 'javascript:alert(1)';</style>"),

  // Template, noscript and mutation XSS
  v('template', `<template><img src=x onerror=${MARK}></template>`),
  v('noscript title mXSS', `<noscript><p title="</noscript><img src=x onerror=${MARK}>">`),
  v('math mglyph style mXSS', `<math><mtext><table><mglyph><style><img src=x onerror=${MARK}>`),
  v('form math mXSS', `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${MARK}>`),
  v('svg style mXSS', `<svg></p><style><a id="</style><img src=1 onerror=${MARK}>">`),
  v('select option mXSS', `<select><template><style><img src=x onerror=${MARK}></style></template></select>`),
  v('contenteditable onblur', `<x contenteditable onblur=${MARK}>lose focus</x>`),

  // MathML, tables and the study blocks' attributes (math, callouts, footnotes, code)
  v(
    'math maction statusline',
    `<math><maction actiontype="statusline" xlink:href="javascript:${MARK}"><mtext>x</mtext></maction></math>`,
  ),
  v(
    'math annotation-xml text/html',
    `<math><annotation-xml encoding="text/html"><img src=x onerror=${MARK}></annotation-xml></math>`,
  ),
  v('math href', `<math href="javascript:${MARK}"><mi>x</mi></math>`),
  v('math mi xlink:href', `<math><mi xlink:href="javascript:${MARK}">x</mi></math>`),
  v('math mtext style mXSS', `<math><mtext><style><img src=x onerror=${MARK}></style></mtext></math>`),
  v('math in inline math span', `<span data-type="math_inline"><math><mi onclick="${MARK}">x</mi></math></span>`),
  v('TeX href in inline math', `<span data-type="math_inline">\\href{javascript:${MARK}}{x}</span>`),
  v('TeX breakout from a display formula', `<div data-type="math_block">x</div></math><img src=x onerror=${MARK}></div>`),
  v('table background javascript:', `<table background="javascript:${MARK}"><tr><td>x</td></tr></table>`),
  v(
    'td onmouseover',
    `<table><tr><td onmouseover="${MARK}" style="text-align:left;background:url(javascript:${MARK})">x</td></tr></table>`,
  ),
  v('table caption breakout', `<table><caption><img src=x onerror=${MARK}></caption></table>`),
  v('code language attribute breakout', `<pre data-language='"><img src=x onerror=${MARK}>'><code>x</code></pre>`),
  v('footnote label attribute breakout', `<sup data-type="footnote_reference" data-label='x" onmouseover="${MARK}'>1</sup>`),
  v('callout with a handler', `<div data-callout="tip" onclick="${MARK}" class="x"><p>t</p></div>`),

  // Encoded forms that must stay text
  v('HTML-escaped script', `&lt;script&gt;${MARK}&lt;/script&gt;`),
  v('URL-encoded script', '%3Cscript%3Etop.__xss%3D1%3C%2Fscript%3E'),
  v('NUL inside a tag', `<img src=x\u0000 onerror=${MARK}>`),
  v('template injection', "{{constructor.constructor('top.__xss=1')()}}"),
];

/** A fragment as it would be pasted or typed: unique per vector, so a test can find it on a page. */
export function labelled(index: number, vector: XssVector): string {
  return `xss${index} ${vector.payload}`;
}

/** The first `max` characters, for fields with a length limit (a cut vector is still worth sending). */
export function clip(text: string, max: number): string {
  return [...text].slice(0, max).join('');
}
