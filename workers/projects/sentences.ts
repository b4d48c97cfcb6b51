// Sentence splitting without a model, for evidence strips, claim extraction and the stance model:
// offsets into the original text (so a hit can be highlighted in place). Rule-based: a sentence
// ends at . ! ? (plus closing quotes/brackets) before white space and a capital, digit or
// opening bracket, unless the word before is a known abbreviation or a single initial.
// Pure; imports nothing.

export interface SentenceSpan {
  text: string;
  start: number;
  end: number;
}

/** Lower-cased abbreviations (without the final dot) after which a dot does not end a sentence. */
const ABBREVIATIONS = new Set(
  (
    'e.g i.e et al etc vs cf fig figs eq eqs ref refs no nos approx ca dr mr mrs ms prof st jr sr ' +
    'inc ltd co corp dept univ vol vols pp ed eds resp incl min max sp spp var subsp viz al'
  ).split(' '),
);

const END = /[.!?](?:["'”’)\]]*)(?=\s+["'“‘([]?[\p{Lu}\p{N}])/gu;

/** Splits `text` into sentences; each span's `text` equals `text.slice(start, end)`, trimmed. */
export function splitSentences(text: string): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  let start = 0;
  END.lastIndex = 0;
  for (let m = END.exec(text); m; m = END.exec(text)) {
    const end = m.index + m[0].length;
    if (m[0][0] === '.' && isAbbreviation(text, m.index)) continue;
    push(out, text, start, end);
    start = end;
  }
  push(out, text, start, text.length);
  return out;
}

function isAbbreviation(text: string, dot: number): boolean {
  const before = /([\p{L}.]+)$/u.exec(text.slice(Math.max(0, dot - 12), dot));
  if (!before) return false;
  const word = before[1]!;
  if (/^\p{Lu}$/u.test(word)) return true; // an initial: "J. Smith", "E. coli"
  return ABBREVIATIONS.has(word.toLowerCase());
}

function push(out: SentenceSpan[], text: string, from: number, to: number): void {
  let s = from;
  let e = to;
  while (s < e && /\s/.test(text[s]!)) s++;
  while (e > s && /\s/.test(text[e - 1]!)) e--;
  if (e > s) out.push({ text: text.slice(s, e), start: s, end: e });
}
