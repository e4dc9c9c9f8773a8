/**
 * One string for many equal ones. Thousands of stored pages held in memory carry the same few
 * Content-Security-Policies (one per set of inline scripts), content types and build ids; read
 * from the store's file, each page would hold its own copy of each (about 700 bytes a page for
 * the policy alone). At most `limit` distinct values are kept: past it, values are not shared.
 */
export function stringSharer(limit = 1000): (value: string) => string {
  const known = new Map<string, string>();
  return (value) => {
    const shared = known.get(value);
    if (shared !== undefined) return shared;
    if (known.size < limit) known.set(value, value);
    return value;
  };
}

/** The pages' own strings that repeat from page to page, shared process-wide. */
export const sharedPageString = stringSharer();
