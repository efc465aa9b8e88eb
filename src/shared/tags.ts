/**
 * Tags are compared folded (trimmed, NFC, lower case) and shown as first written: 'Garden' and
 * ' garden ' are one tag, kept as 'Garden'.
 */
export const tagKey = (tag: string) => tag.trim().normalize('NFC').toLowerCase();

/** Trimmed, blank ones dropped, later spellings of a tag already there dropped, order kept. */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim().normalize('NFC');
    const key = tagKey(tag);
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    kept.push(tag);
  }
  return kept;
}
