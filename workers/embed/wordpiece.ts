// WordPiece tokenizer for BERT-family sentence encoders, read from a Hugging Face tokenizer.json
// (BertNormalizer + BertPreTokenizer + WordPiece + [CLS] A [SEP] template), following the Rust
// `tokenizers` implementation step by step so token ids equal the reference (tested on the real
// all-MiniLM-L6-v2 tokenizer against Python `tokenizers`). Why not @huggingface/tokenizers (the JS
// library transformers.js uses, a dev dependency here): on the 218 fixture texts its ids differ
// once, on "ΣΊΣΥΦΟΣ" (JS toLowerCase turns a final Σ into ς, Rust lowercases per character to σ),
// so vectors would not match the models' reference tokenisation; this file matches all 218.
// Must not import anything beyond the standard library.

interface TokenizerJson {
  normalizer?: {
    type?: string;
    clean_text?: boolean;
    handle_chinese_chars?: boolean;
    strip_accents?: boolean | null;
    lowercase?: boolean;
  } | null;
  model: {
    type: string;
    vocab: Record<string, number>;
    unk_token: string;
    continuing_subword_prefix?: string;
    max_input_chars_per_word?: number;
  };
  truncation?: { max_length?: number } | null;
}

export interface WordPieceEncoding {
  /** [CLS] tokens [SEP], truncated to maxLength (the [SEP] is kept). */
  ids: number[];
  /** Word pieces as strings (without [CLS]/[SEP]), for debugging. */
  tokens: string[];
}

export interface WordPieceTokenizer {
  encode(text: string, maxLength?: number): WordPieceEncoding;
  readonly vocabSize: number;
  readonly clsId: number;
  readonly sepId: number;
  readonly padId: number;
}

// Rust `char::is_whitespace` is the Unicode White_Space property (JS \s also has U+FEFF).
const WHITESPACE = /\p{White_Space}/u;
// tokenizers' is_control: categories C* except \t \n \r (which count as whitespace).
const OTHER = /\p{C}/u;
// BERT punctuation: ASCII punctuation (includes $ + < = > ^ ` | ~) or any Unicode P* character.
const PUNCT = /[!-/:-@[-`{-~]|\p{P}/u;
const MARK_NONSPACING = /\p{Mn}/u;

function isChineseChar(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

export function createWordPieceTokenizer(json: TokenizerJson): WordPieceTokenizer {
  if (json.model.type !== 'WordPiece') {
    throw new Error(`tokenizer.json model type ${json.model.type} is not WordPiece`);
  }
  const vocab = new Map(Object.entries(json.model.vocab));
  const unk = json.model.unk_token;
  const unkId = vocab.get(unk) ?? 0;
  const prefix = json.model.continuing_subword_prefix ?? '##';
  const maxChars = json.model.max_input_chars_per_word ?? 100;
  const norm = json.normalizer ?? {};
  const lowercase = norm.lowercase ?? true;
  const stripAccents = norm.strip_accents ?? lowercase;
  const clsId = vocab.get('[CLS]') ?? 101;
  const sepId = vocab.get('[SEP]') ?? 102;
  const padId = vocab.get('[PAD]') ?? 0;
  const defaultMax = json.truncation?.max_length ?? 512;

  function normalize(text: string): string {
    let out = '';
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      if (norm.clean_text ?? true) {
        if (cp === 0 || cp === 0xfffd) continue;
        if (ch !== '\t' && ch !== '\n' && ch !== '\r' && OTHER.test(ch)) continue;
        if (WHITESPACE.test(ch)) {
          out += ' ';
          continue;
        }
      }
      if ((norm.handle_chinese_chars ?? true) && isChineseChar(cp)) out += ` ${ch} `;
      else out += ch;
    }
    if (stripAccents) {
      let s = '';
      for (const ch of out.normalize('NFD')) if (!MARK_NONSPACING.test(ch)) s += ch;
      out = s;
    }
    // Per code point, as the Rust normalizer does: no context rules (final sigma stays σ).
    return lowercase ? Array.from(out, (c) => c.toLowerCase()).join('') : out;
  }

  function preTokenize(text: string): string[] {
    const words: string[] = [];
    let cur = '';
    for (const ch of text) {
      if (WHITESPACE.test(ch)) {
        if (cur) words.push(cur);
        cur = '';
      } else if (PUNCT.test(ch)) {
        if (cur) words.push(cur);
        words.push(ch);
        cur = '';
      } else {
        cur += ch;
      }
    }
    if (cur) words.push(cur);
    return words;
  }

  function wordPiece(word: string): string[] {
    const chars = Array.from(word);
    if (chars.length > maxChars) return [unk];
    const pieces: string[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: string | null = null;
      while (start < end) {
        let sub = chars.slice(start, end).join('');
        if (start > 0) sub = prefix + sub;
        if (vocab.has(sub)) {
          found = sub;
          break;
        }
        end--;
      }
      if (found === null) return [unk];
      pieces.push(found);
      start = end;
    }
    return pieces;
  }

  return {
    vocabSize: vocab.size,
    clsId,
    sepId,
    padId,
    encode(text, maxLength = defaultMax) {
      const tokens = preTokenize(normalize(text)).flatMap(wordPiece);
      const kept = tokens.slice(0, Math.max(0, maxLength - 2));
      return {
        ids: [clsId, ...kept.map((t) => vocab.get(t) ?? unkId), sepId],
        tokens: kept,
      };
    },
  };
}
