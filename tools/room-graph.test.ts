// The rooms of the house import one way: the graph of rooms (each folder under workers/, the
// worker entries directly in workers/, and app, eval, ml, bench, lab, tools, experiments) built
// from the relative imports of every .ts/.tsx module has no cycle. Test files are left out: no
// module imports a test, so a test closes no cycle of modules; it sits beside what it tests.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const TOP_ROOMS = ['app', 'eval', 'ml', 'bench', 'lab', 'tools', 'experiments'];

/**
 * Room pairs allowed to import each other, each with its reason. eval <-> ml: `eval/run.ts` hands
 * ml/'s fits to the eval CLI (`--task crag-fit`, ...) while ml/ builds on eval's harness and data
 * loaders (ARCHITECTURE.md, the eval/ row).
 */
const ALLOWED = new Set(['eval -> ml']);

/** The room of a repo-relative path (null: outside every room). */
export function roomOf(rel: string): string | null {
  const parts = rel.split('/');
  if (parts[0] === 'workers') {
    if (parts.length > 2) return `workers/${parts[1]}`;
    // `../vector` from a sibling room names the folder (its index.ts), not a worker entry
    return parts.length === 2 && isDir(join(ROOT, rel)) ? `workers/${parts[1]}` : 'workers';
  }
  return TOP_ROOMS.includes(parts[0]!) ? parts[0]! : null;
}

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

function* modules(dir: string): Generator<string> {
  for (const e of readdirSync(dir)) {
    if (e === 'node_modules' || e.startsWith('.')) continue;
    const f = join(dir, e);
    if (statSync(f).isDirectory()) yield* modules(f);
    else if (/\.tsx?$/.test(e) && !/\.test\.tsx?$/.test(e)) yield f;
  }
}

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]*)['"]/g;

/** Room -> room -> the first import that makes the edge (file: specifier). */
export function roomGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const top of ['workers', ...TOP_ROOMS]) {
    for (const file of modules(join(ROOT, top))) {
      const rel = relative(ROOT, file);
      const from = roomOf(rel)!;
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const to = roomOf(relative(ROOT, resolve(dirname(file), m[1]!)));
        if (!to || to === from) continue;
        const edges = graph.get(from) ?? new Map<string, string>();
        if (!edges.has(to)) edges.set(to, `${rel}: ${m[1]}`);
        graph.set(from, edges);
      }
    }
  }
  return graph;
}

/** One cycle of the graph as a list of `room (via file: import)` steps, or null. */
export function findCycle(graph: Map<string, Map<string, string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: Array<{ room: string; via: string }> = [];
  const visit = (room: string, via: string): string[] | null => {
    if (state.get(room) === 'open') {
      const start = path.findIndex((p) => p.room === room);
      return [...path.slice(start), { room, via }].map((p, i) =>
        i === 0 ? p.room : `${p.room} (${p.via})`,
      );
    }
    if (state.get(room) === 'done') return null;
    state.set(room, 'open');
    path.push({ room, via });
    for (const [to, how] of graph.get(room) ?? []) {
      if (ALLOWED.has(`${room} -> ${to}`)) continue;
      const cycle = visit(to, how);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(room, 'done');
    return null;
  };
  for (const room of [...graph.keys()].sort()) {
    const cycle = visit(room, '');
    if (cycle) return cycle;
  }
  return null;
}

describe('room graph', () => {
  it('has no import cycle between rooms', () => {
    const cycle = findCycle(roomGraph());
    expect(cycle, cycle ? `import cycle:\n  ${cycle.join('\n  -> ')}` : '').toBeNull();
  });

  it('finds a cycle when one room imports back', () => {
    const graph = roomGraph();
    const shared = graph.get('workers/shared') ?? new Map<string, string>();
    graph.set('workers/shared', shared.set('workers/answer', 'workers/shared/x.ts: ../answer/y'));
    const cycle = findCycle(graph)!;
    const rooms = cycle.map((step) => step.split(' ')[0]);
    expect(rooms[0]).toBe(rooms.at(-1));
    expect(rooms).toEqual(expect.arrayContaining(['workers/shared', 'workers/answer']));
    expect(cycle.join(' ')).toContain('workers/shared/x.ts: ../answer/y');
  });

  it('sees the answer and projects rooms apart: both import the text features', () => {
    const graph = roomGraph();
    expect(graph.get('workers/answer')?.has('workers/projects')).toBe(false);
    expect(graph.get('workers/answer')?.has('workers/text-features')).toBe(true);
    expect(graph.get('workers/projects')?.has('workers/text-features')).toBe(true);
  });
});
