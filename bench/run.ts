// `npm run bench [-- <name> [flags]]`: runs one sub-benchmark, `lexical` by default.
// A sub-benchmark is any `bench/<name>.bench.ts` whose default export is
// `{ name: string; run(argv: string[]): Promise<void> }`; it is found by file name, so a later
// issue adds `npm run bench -- embed|hybrid|plan` by adding a file. `--list` shows them.
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface SubBenchmark {
  name: string;
  run(argv: string[]): Promise<void>;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const DEFAULT = 'lexical';

function available(): string[] {
  return readdirSync(HERE)
    .filter((f) => f.endsWith('.bench.ts'))
    .map((f) => f.slice(0, -'.bench.ts'.length))
    .sort();
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const names = available();
  if (argv[0] === '--list') {
    console.log(names.join('\n'));
    return;
  }
  const name = argv[0] && !argv[0].startsWith('--') ? argv[0] : DEFAULT;
  const rest = argv[0] === name ? argv.slice(1) : argv;
  if (!names.includes(name)) {
    console.error(`Unknown benchmark "${name}". Available: ${names.join(', ')}`);
    process.exit(2);
  }
  const mod = (await import(pathToFileURL(`${HERE}/${name}.bench.ts`).href)) as {
    default?: SubBenchmark;
  };
  if (!mod.default || typeof mod.default.run !== 'function') {
    console.error(`bench/${name}.bench.ts has no default export { name, run(argv) }.`);
    process.exit(2);
  }
  await mod.default.run(rest);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
