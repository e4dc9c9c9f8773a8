/** Content codings the front server sends, best first. */
export type Encoding = 'br' | 'gzip' | 'identity';

const accepting = (name: string) => new RegExp(`(^|[\\s,])${name}(?!;\\s*q=0(\\.0+)?\\s*(,|$))(\\s*;[^,]*)?(,|$)`, 'i');
const ACCEPTS_BR = accepting('br');
const ACCEPTS_GZIP = accepting('gzip');

function headerText(acceptEncoding: string | string[] | undefined): string {
  return Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
}

/** The codings this Accept-Encoding allows, best first; identity always last. */
export function acceptedEncodings(acceptEncoding: string | string[] | undefined): Encoding[] {
  const header = headerText(acceptEncoding);
  const list: Encoding[] = [];
  if (ACCEPTS_BR.test(header)) list.push('br');
  if (ACCEPTS_GZIP.test(header)) list.push('gzip');
  list.push('identity');
  return list;
}

export function pickEncoding(acceptEncoding: string | string[] | undefined): Encoding {
  return acceptedEncodings(acceptEncoding)[0]!;
}
