// SentencePiece unigram tokenizer for USE-lite over vocab.json ([piece, score] pairs).
// Reproduces the reference tokenizer of @energetic-ai/embeddings (itself the tfjs-models USE
// tokenizer) exactly, quirks included, because the model was run with it: NFKC, U+2581 for
// spaces, Viterbi over piece scores with ties going to the later candidate, an unknown character
// as id 0 (runs of unknowns merged), and backtracking by the piece's UTF-16 length.
// Must not import anything beyond the standard library.

const SEPARATOR = '\u2581';
/** Ids 0..5 are reserved (unk, <s>, </s>, extra tokens) and never produced by matching. */
const RESERVED_SYMBOLS = 6;

interface TrieNode {
  children: Map<string, TrieNode>;
  /** Vocabulary index when a piece ends here, else -1. */
  index: number;
  score: number;
  /** Piece length in code points (the lattice unit). */
  symbols: number;
}

function newNode(symbols: number): TrieNode {
  return { children: new Map(), index: -1, score: 0, symbols };
}

export interface Tokenizer {
  /** Token ids of `text` (no clipping; the model clips to its window). */
  encode(text: string): number[];
  readonly vocabSize: number;
}

/** The reference's input normalisation: NFKC, then a leading U+2581 and U+2581 for each space. */
export function normalizeInput(text: string): string {
  const normalized = text.normalize('NFKC');
  return normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized;
}

export function createSentencePieceTokenizer(
  vocabulary: ReadonlyArray<readonly [string, number]>,
): Tokenizer {
  const root = newNode(0);
  const pieceLength: number[] = vocabulary.map(([piece]) => piece.length);
  for (let i = RESERVED_SYMBOLS; i < vocabulary.length; i++) {
    const [piece, score] = vocabulary[i]!;
    let node = root;
    let depth = 0;
    for (const ch of piece) {
      depth++;
      let next = node.children.get(ch);
      if (!next) {
        next = newNode(depth);
        node.children.set(ch, next);
      }
      node = next;
    }
    if (depth > 0) {
      // A repeated piece overwrites the earlier one, as in the reference trie.
      node.index = i;
      node.score = score;
    }
  }

  function encode(text: string): number[] {
    const symbols = Array.from(normalizeInput(text));
    const n = symbols.length;
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    // Candidates per end position in the reference's visiting order: start ascending.
    const ends: Array<Array<{ start: number; index: number; score: number; len: number }>> =
      Array.from({ length: n + 1 }, () => []);
    for (let i = 0; i < n; i++) {
      let node = root.children.get(symbols[i]!);
      let found = false;
      for (let j = i; j < n && node; j++) {
        if (node.index >= 0) {
          ends[i + node.symbols]!.push({
            start: i,
            index: node.index,
            score: node.score,
            len: node.symbols,
          });
          found = true;
        }
        node = j + 1 < n ? node.children.get(symbols[j + 1]!) : undefined;
      }
      if (!found) ends[i + 1]!.push({ start: i, index: 0, score: 0, len: 1 });
    }
    for (let end = 0; end <= n; end++) {
      const cands = ends[end]!;
      // the reference iterates object keys (start positions) in ascending numeric order
      cands.sort((a, b) => a.start - b.start);
      for (const c of cands) {
        const score = c.score + best[end - c.len]!;
        if (best[end] === 0 || score >= best[end]!) {
          best[end] = score;
          words[end] = c.index;
        }
      }
    }
    const reversed: number[] = [];
    let iter = n;
    while (iter > 0) {
      const id = words[iter]!;
      reversed.push(id);
      iter -= pieceLength[id]!;
    }
    const merged: number[] = [];
    let previousUnk = false;
    for (const id of reversed) {
      if (!(previousUnk && id === 0)) merged.push(id);
      previousUnk = id === 0;
    }
    return merged.reverse();
  }

  return { encode, vocabSize: vocabulary.length };
}
