// Path globs for the search filter: `*` any run except '/', `**` any run (also across '/'),
// `?` one character except '/'; everything else literal. Compiled to a token automaton matched
// by simulating every live state at once (no backtracking): time is O(glob x path) at worst,
// so no glob can hang a search. Pure: imports nothing.

/** What a glob matches against: `test(path)` like a RegExp, so callers need not care. */
export interface GlobMatcher {
  test(path: string): boolean;
}

const enum Kind {
  Literal, // one code point
  One, // `?`: one code point except '/'
  Star, // `*`: any run without '/'
  GlobStar, // `**` not followed by '/': any run
  DirStar, // `**/`: empty, or any run that ends with '/'
}

interface Token {
  kind: Kind;
  char: string;
}

function tokenize(glob: string): Token[] {
  const chars = Array.from(glob); // code points, as the old RegExp's `u` flag read them
  const out: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    let token: Token;
    if (ch === '*' && chars[i + 1] === '*') {
      i++;
      if (chars[i + 1] === '/') {
        i++;
        token = { kind: Kind.DirStar, char: '' };
      } else token = { kind: Kind.GlobStar, char: '' };
    } else if (ch === '*') token = { kind: Kind.Star, char: '' };
    else if (ch === '?') token = { kind: Kind.One, char: '' };
    else token = { kind: Kind.Literal, char: ch };
    // `**/**/` matches what `**/` matches: one state, not two.
    if (token.kind === Kind.DirStar && out[out.length - 1]?.kind === Kind.DirStar) continue;
    out.push(token);
  }
  return out;
}

const isStar = (k: Kind) => k === Kind.Star || k === Kind.GlobStar || k === Kind.DirStar;

/** Compiles a glob. `**\/` also matches zero directories. Matching never backtracks. */
export function compileGlob(glob: string): GlobMatcher {
  const tokens = tokenize(glob);
  if (tokens.every((t) => t.kind === Kind.Literal)) {
    const literal = tokens.map((t) => t.char).join('');
    return { test: (path) => path === literal };
  }
  return { test: (path) => simulate(tokens, path) };
}

/**
 * The automaton's states are positions in `tokens` (n = accept). Star-like tokens loop on
 * themselves and may be skipped; `**\/` advances on '/'. Each step keeps each state once
 * (generation stamps), so a step costs at most twice the number of tokens.
 */
function simulate(tokens: Token[], path: string): boolean {
  const n = tokens.length;
  const listed = new Uint32Array(n + 1); // state is in `next` this generation
  const closed = new Uint32Array(n + 1); // state's epsilon closure was added this generation
  let generation = 1;
  let current: number[] = [];
  let next: number[] = [];
  const put = (list: number[], s: number) => {
    if (listed[s] === generation) return;
    listed[s] = generation;
    list.push(s);
  };
  const add = (list: number[], s: number) => {
    // Epsilon closure: a star-like token may match nothing.
    while (s <= n && closed[s] !== generation) {
      closed[s] = generation;
      put(list, s);
      if (s < n && isStar(tokens[s]!.kind)) s++;
      else break;
    }
  };
  add(current, 0);
  for (const ch of path) {
    generation++;
    next.length = 0;
    for (const s of current) {
      if (s === n) continue;
      const t = tokens[s]!;
      switch (t.kind) {
        case Kind.Literal:
          if (ch === t.char) add(next, s + 1);
          break;
        case Kind.One:
          if (ch !== '/') add(next, s + 1);
          break;
        case Kind.Star:
          if (ch !== '/') add(next, s);
          break;
        case Kind.GlobStar:
          add(next, s);
          break;
        case Kind.DirStar:
          put(next, s); // inside the run: only a '/' may end it, so no skip from here
          if (ch === '/') add(next, s + 1);
          break;
      }
    }
    if (next.length === 0) return false;
    [current, next] = [next, current];
  }
  return current.includes(n);
}
