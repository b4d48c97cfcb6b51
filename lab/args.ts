// Command-line flags for the eval CLI and the benchmarks: `--key value` or `--key=value`.
// Positional arguments are ignored, or refused with `strict` (the eval CLI, where a typo in a
// flag would otherwise silently evaluate the wrong thing).

export function parseArgs(
  argv: string[],
  options: { strict?: boolean } = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      if (options.strict) throw new Error(`Unexpected argument ${arg}`);
      continue;
    }
    const [key, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    // A flag followed by another flag is a switch (`--profile --out f`), not `--profile=--out`.
    const next = argv[i + 1];
    out[key] = inline ?? (next !== undefined && !next.startsWith('--') ? argv[++i]! : '');
  }
  return out;
}
