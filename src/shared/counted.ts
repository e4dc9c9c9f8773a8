/** "1 view", "2 views": a count with its noun in the right number (English plurals). */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
