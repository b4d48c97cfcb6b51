// The varied test texts for USE-lite checks: hand-written edge cases (empty, punctuation, digits,
// non-Latin scripts, emoji, very long) plus SciFact queries and abstracts when the dataset is
// available. Used only by the generator scripts in wasm/ (the fixture stores the texts it used).
import { existsSync, readFileSync } from 'node:fs';

export const EDGE_TEXTS: string[] = [
  '',
  ' ',
  'a',
  '.',
  '!!!',
  '?!?!',
  '...',
  'hello',
  'Hello, world!',
  'hello world',
  'HELLO WORLD',
  'The quick brown fox jumps over the lazy dog.',
  'the   quick\tbrown\nfox',
  '  leading and trailing spaces  ',
  "It's a dog's life, isn't it?",
  '"Quoted" text with (parentheses) and [brackets] and {braces}.',
  'e-mail: someone@example.com, url: https://example.org/path?q=1&r=2',
  '#hashtag @mention $100 50% 3.14159 1e-9',
  '1234567890',
  '0 1 2 3 4 5 6 7 8 9 10 11 12',
  'In 2023, 42% of 1,000 patients (n=1000) had p < 0.05.',
  'IL-6, TNF-α and IFN-γ levels were measured by ELISA.',
  'CO2 + H2O → H2CO3',
  'x² + y² = z²',
  'ﬁ ﬂ ﬀ ligatures and ① ② ③ circled digits (NFKC)',
  'Ｆｕｌｌｗｉｄｔｈ　ｔｅｘｔ',
  'café naïve résumé coöperate',
  'Straße über Äpfel Öl',
  'El niño comió una manzana.',
  'Je ne sais pas ce que tu veux dire.',
  'Быстрая коричневая лиса прыгает через ленивую собаку.',
  'Γρήγορη καφέ αλεπού',
  'שלום עולם',
  'مرحبا بالعالم',
  'नमस्ते दुनिया',
  '你好，世界',
  '日本語のテキスト',
  '한국어 텍스트입니다',
  'ภาษาไทย',
  '😀',
  '😀😀😀',
  'I love pizza 🍕 and sushi 🍣!',
  '👍🏽 👨‍👩‍👧‍👦 🇫🇷',
  'mixed 日本 and English and Русский',
  '\u200b zero width space',
  'tab\tseparated\tvalues',
  'line one\nline two\nline three',
  'ALL CAPS SENTENCE ABOUT CANCER',
  'lowercase sentence about cancer',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  'supercalifragilisticexpialidocious',
  'antidisestablishmentarianism',
  'What is the capital of France?',
  'How do vaccines work?',
  'Does smoking cause lung cancer?',
  'Apple',
  'apple',
  'APPLE',
  'word '.repeat(300).trim(),
  'The cell is the basic unit of life. '.repeat(20).trim(),
  Array.from({ length: 200 }, (_, i) => `token${i}`).join(' '),
  Array.from({ length: 150 }, (_, i) => String(i)).join(', '),
  '😀 '.repeat(100),
  '日本語'.repeat(80),
  '- item one\n- item two\n- item three',
  '<p>HTML <b>tags</b> as text</p>',
  'function f(x) { return x * 2; }',
  'SELECT * FROM docs WHERE id = 1;',
  '¿Qué? ¡Sí!',
  '“Curly quotes” and ‘single’ ones — and an em dash – and en dash',
  '∑ ∫ √ ∞ ≠ ≤ ≥',
  '§ ¶ † ‡ • …',
  '\u00a0non-breaking\u00a0space',
  'A.B.C. D.E.F.',
  'U.S.A. vs. U.K.',
  'Dr. Smith et al. (2019) reported...',
];

interface CorpusRow {
  title?: string;
  text?: string;
}

/** Edge cases plus SciFact texts (queries, titles, abstracts) up to `total`. */
export function referenceTexts(scifactDir: string, total = 210): string[] {
  const texts = [...EDGE_TEXTS];
  const qPath = `${scifactDir}/queries.jsonl`;
  const cPath = `${scifactDir}/corpus.jsonl`;
  if (existsSync(qPath) && existsSync(cPath)) {
    const queries = readFileSync(qPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as CorpusRow).text ?? '');
    const corpus = readFileSync(cPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as CorpusRow);
    let i = 0;
    while (texts.length < total) {
      const k = i++;
      if (k % 3 === 0) texts.push(queries[(k * 7) % queries.length]!);
      else if (k % 3 === 1) texts.push(corpus[(k * 37) % corpus.length]!.text!);
      else
        texts.push(
          `${corpus[(k * 53) % corpus.length]!.title!}. ${corpus[(k * 53) % corpus.length]!.text!}`.slice(
            0,
            400,
          ),
        );
    }
  }
  return texts;
}
