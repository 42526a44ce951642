/** The texts a palette entry is found by. */
export interface SearchFields {
  label: string;
  heading: string;
  id: string;
  keywords: readonly string[];
}

const normalize = (text: string) => text.normalize('NFKC').toLocaleLowerCase();

/** CJK ideographs and Tibetan letters: each character (Tibetan: each syllable) starts a "word" of its own. */
const CJK = /[\p{Script=Han}]/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;

function startsWord(text: string, index: number): boolean {
  if (index === 0 || CJK.test(text[index])) return true;
  return WORD_CHAR.test(text[index]) && !WORD_CHAR.test(text[index - 1]);
}

/**
 * Whether `term` can be read from `text` taking each character either right after the previous one or at the
 * start of a word: 'kbs' finds "KeyBoard Shortcuts"-like initials, '个资' finds 个人资料, but 'set' does not find
 * "Show kEyboard shorTcuts" by scattered letters.
 */
function initials(term: string, text: string, from = 0, prev = -2): boolean {
  if (term.length === 0) return true;
  for (let i = from; i < text.length; i++) {
    if (text[i] !== term[0]) continue;
    if ((i === prev + 1 || startsWord(text, i)) && initials(term.slice(1), text, i + 1, i)) return true;
  }
  return false;
}

function fieldScore(term: string, text: string): number {
  const at = text.indexOf(term);
  if (at === 0) return 1;
  if (at > 0) return startsWord(text, at) ? 0.9 : 0.75;
  return initials(term, text) ? 0.5 : 0;
}

/**
 * How well `search` finds a command, 0 (hidden) to 1. Every space-separated term must be found in one of the
 * fields; the label counts most, the heading least. Case, full-width forms and accents are folded.
 */
export function scoreCommand(search: string, fields: SearchFields): number {
  const terms = normalize(search).split(/\s+/).filter(Boolean);
  if (terms.length === 0) return 1;
  const weighted: [string, number][] = [
    [normalize(fields.label), 1],
    [normalize(fields.id), 0.8],
    ...fields.keywords.map((k): [string, number] => [normalize(k), 0.8]),
    [normalize(fields.heading), 0.6],
  ];
  let total = 1;
  for (const term of terms) {
    const best = Math.max(...weighted.map(([text, weight]) => fieldScore(term, text) * weight));
    if (best === 0) return 0;
    total = Math.min(total, best);
  }
  return total;
}

/**
 * The palette's groups for a search: commands found, each group's best first, and the group whose best command
 * scores highest first (ties keep the given order: the innermost scope first). cmdk's own sorting reorders
 * items only inside their group and never the groups, so a weak match in the screen's group stood above the
 * command the search named in a later one; the palette ranks here and lets cmdk only display.
 */
export function rankGroups<G extends { commands: readonly unknown[] }>(groups: readonly G[], search: string, fieldsOf: (command: G['commands'][number], group: G) => SearchFields): G[] {
  if (search.trim() === '') return [...groups];
  const ranked = groups.map((group, order) => {
    const scored = group.commands
      .map((command, index) => ({ command, index, score: scoreCommand(search, fieldsOf(command, group)) }))
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.index - b.index);
    return { group: { ...group, commands: scored.map((s) => s.command) }, best: scored[0]?.score ?? 0, order };
  });
  return ranked
    .filter((r) => r.best > 0)
    .sort((a, b) => b.best - a.best || a.order - b.order)
    .map((r) => r.group);
}
