// `npx tsx eval/readme-beir.ts <out folder> [--max-chars 2000]`: writes a BEIR-format folder
// built offline from the installed npm packages (node_modules, pinned by package-lock.json), to
// measure whether the answer evaluator's SciFact-fitted numbers transfer to another domain and
// query style. Documents: each package's README as plain text (code blocks, images, HTML and
// link targets removed; cut at `--max-chars`). Queries: each package.json `description`, its
// one relevant document the package's README with every copy of the description's
// words (in order, any punctuation between) removed (a known-item search: "which package does this?"). Packages with a short README or a
// description under 4 words are skipped; duplicate READMEs and descriptions are dropped.
// Node only; nothing here is read by the app.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../workers/embed/node-kernel';

interface Pkg {
  name: string;
  description: string;
  readme: string;
}

/** README markdown to plain text a reader would search. */
export function readmeText(md: string): string {
  return md
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/^\s*\[[^\]]+\]:\s*\S+.*$/gm, ' ')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|[-*+>]|\d+\.)\s+/gm, '')
    .replace(/[*_]{1,3}([^*_\n]+)[*_]{1,3}/g, '$1')
    .replace(/^\s*[|:-]+\s*$/gm, ' ')
    .replace(/\|/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const stop = head.lastIndexOf('. ');
  return stop > max / 2 ? head.slice(0, stop + 1) : head.slice(0, head.lastIndexOf(' '));
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function packages(root: string): Pkg[] {
  const dirs: string[] = [];
  for (const name of readdirSync(root)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@'))
      for (const sub of readdirSync(join(root, name))) dirs.push(join(root, name, sub));
    else dirs.push(join(root, name));
  }
  const out: Pkg[] = [];
  for (const dir of dirs.sort()) {
    const pj = join(dir, 'package.json');
    if (!existsSync(pj)) continue;
    const readmeFile = readdirSync(dir).find((f) => /^readme(\.md|\.markdown)?$/i.test(f));
    if (!readmeFile) continue;
    const meta = JSON.parse(readFileSync(pj, 'utf8')) as { name?: string; description?: string };
    if (!meta.name || typeof meta.description !== 'string') continue;
    out.push({
      name: meta.name,
      description: meta.description.replace(/\s+/g, ' ').trim(),
      readme: readFileSync(join(dir, readmeFile), 'utf8'),
    });
  }
  return out;
}

export function buildReadmeBeir(out: string, maxChars = 2000): { docs: number; queries: number } {
  const root = realpathSync(join(REPO_ROOT, 'node_modules'));
  const seenText = new Set<string>();
  const seenDesc = new Set<string>();
  const corpus: string[] = [];
  const queries: string[] = [];
  const qrels: string[] = ['query-id\tcorpus-id\tscore'];
  for (const p of packages(root)) {
    const desc = p.description;
    if (desc.split(' ').length < 4 || seenDesc.has(desc.toLowerCase())) continue;
    let text = readmeText(p.readme);
    // the description's words in order, whatever punctuation sits between them
    const words = desc.match(/[A-Za-z0-9]+/g) ?? [];
    text = text.replace(new RegExp(words.map(escapeRe).join('[^A-Za-z0-9]+'), 'gi'), ' ');
    text = cut(text.replace(/\s+/g, ' ').trim(), maxChars);
    if (text.length < 300) continue;
    const hash = createHash('sha256').update(text).digest('hex');
    if (seenText.has(hash)) continue;
    seenText.add(hash);
    seenDesc.add(desc.toLowerCase());
    corpus.push(JSON.stringify({ _id: p.name, title: '', text }));
    queries.push(JSON.stringify({ _id: `q:${p.name}`, text: desc }));
    qrels.push(`q:${p.name}\t${p.name}\t1`);
  }
  mkdirSync(join(out, 'qrels'), { recursive: true });
  writeFileSync(join(out, 'corpus.jsonl'), `${corpus.join('\n')}\n`);
  writeFileSync(join(out, 'queries.jsonl'), `${queries.join('\n')}\n`);
  writeFileSync(join(out, 'qrels', 'test.tsv'), `${qrels.join('\n')}\n`);
  return { docs: corpus.length, queries: queries.length };
}

if (process.argv[1]?.endsWith('readme-beir.ts')) {
  const out = process.argv[2];
  if (!out) throw new Error('Usage: npx tsx eval/readme-beir.ts <out folder> [--max-chars N]');
  const i = process.argv.indexOf('--max-chars');
  const max = i > 0 ? Number(process.argv[i + 1]) : 2000;
  const n = buildReadmeBeir(out, max);
  console.log(`[readme-beir] wrote ${out}: ${n.docs} documents, ${n.queries} queries`);
}
