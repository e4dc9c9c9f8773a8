import { invalidInput } from '../errors.ts';
import { parseId } from '../../shared/ids.ts';

/**
 * An id from the path or the query: anything but a positive whole number is a 400 naming what
 * it was for (`The blog id must be a positive whole number.`), never a lookup.
 */
export function requireId(raw: string | null | undefined, what: string): number {
  const id = parseId(raw);
  if (id === null) throw invalidInput(`The ${what} id must be a positive whole number.`);
  return id;
}
