// Path globs for the search filter: `*` any run except '/', `**` any run (also across '/'),
// `?` one character except '/'; everything else literal. Compiled to a token automaton matched
// by simulating every live state at once (no backtracking), made deterministic lazily and cached
// per glob: time is O(glob x path) at worst, one look-up per character once warm,
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
    const prev = out[out.length - 1];
    const merged = prev ? mergeStars(prev.kind, token.kind) : null;
    if (prev && merged !== null) {
      prev.kind = merged; // e.g. `**/**` matches what `**` matches: one state, not two
      continue;
    }
    out.push(token);
  }
  return out;
}

/**
 * The one token two adjacent star-like tokens match exactly, or null: `*`+`**`, `**`+`*`,
 * `**`+`**\/` and `**\/`+`**` are `**`; `**\/`+`**\/` is `**\/`; `*` next to `**\/` stays two.
 */
function mergeStars(a: Kind, b: Kind): Kind | null {
  if (!isStar(a) || !isStar(b)) return null;
  if (a === Kind.DirStar && b === Kind.DirStar) return Kind.DirStar;
  if (a === Kind.GlobStar || b === Kind.GlobStar) return Kind.GlobStar;
  return a === Kind.Star && b === Kind.Star ? Kind.Star : null;
}

const isStar = (k: Kind) => k === Kind.Star || k === Kind.GlobStar || k === Kind.DirStar;

/** Compiles a glob. `**\/` also matches zero directories. Matching never backtracks. */
export function compileGlob(glob: string): GlobMatcher {
  const tokens = tokenize(glob);
  if (tokens.every((t) => t.kind === Kind.Literal)) {
    const literal = tokens.map((t) => t.char).join('');
    return { test: (path) => path === literal };
  }
  return createDfa(createNfa(tokens));
}

/** The token automaton: a start set and a step from a set of states on one character. */
interface Nfa {
  accept: number;
  start(): number[];
  step(states: number[], ch: string): number[];
}

/**
 * The automaton's states are positions in `tokens` (n = accept). Star-like tokens loop on
 * themselves and may be skipped; `**\/` advances on '/'. Each step keeps each state once
 * (generation stamps), so a step costs at most twice the number of tokens.
 */
function createNfa(tokens: Token[]): Nfa {
  const n = tokens.length;
  const listed = new Uint32Array(n + 1); // state is in the list being built this generation
  const closed = new Uint32Array(n + 1); // state's epsilon closure was added this generation
  let generation = 0;
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
  // A live `**` state matches everything a live state before it can (`.*` absorbs what those
  // tokens would read first), so those are dropped: sets stay small and few.
  const prune = (list: number[]): number[] => {
    let floor = -1;
    for (const s of list) if (s < n && tokens[s]!.kind === Kind.GlobStar && s > floor) floor = s;
    return (floor < 0 ? list : list.filter((s) => s >= floor)).sort((a, b) => a - b);
  };
  return {
    accept: n,
    start() {
      generation++;
      const list: number[] = [];
      add(list, 0);
      return prune(list);
    },
    step(states, ch) {
      generation++;
      const next: number[] = [];
      for (const s of states) {
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
      return prune(next);
    },
  };
}

/** Sets of states remembered per glob; past this the matcher steps the automaton uncached. */
const MAX_CACHED_SETS = 4096;

interface StateSet {
  states: number[];
  accepts: boolean;
  next: Map<number, StateSet>;
}

/**
 * The automaton made deterministic lazily (subset construction on demand): each set of states
 * met and each of its transitions is computed once per glob, so matching many paths costs one
 * map look-up per character; a bounded cache keeps a hostile glob from growing it without end.
 */
function createDfa(nfa: Nfa): GlobMatcher {
  const byKey = new Map<string, StateSet>();
  const intern = (states: number[]): StateSet => {
    const key = states.join(',');
    let set = byKey.get(key);
    if (!set) {
      set = { states, accepts: states.includes(nfa.accept), next: new Map() };
      if (byKey.size < MAX_CACHED_SETS) byKey.set(key, set);
    }
    return set;
  };
  const start = intern(nfa.start());
  return {
    test(path) {
      let set = start;
      for (let i = 0; i < path.length; i++) {
        const code = path.codePointAt(i)!;
        if (code > 0xffff) i++; // a surrogate pair is one character, as `?` reads it
        let next = set.next.get(code);
        if (!next) {
          next = intern(nfa.step(set.states, String.fromCodePoint(code)));
          if (byKey.size < MAX_CACHED_SETS) set.next.set(code, next);
        }
        if (next.states.length === 0) return false;
        set = next;
      }
      return set.accepts;
    },
  };
}
