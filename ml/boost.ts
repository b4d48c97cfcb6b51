// Gradient-boosted trees for the crag fit: Newton boosting of the log loss (second-order leaf
// values, L2 on leaves, quantile-binned split candidates, depth-limited trees) starting from the
// fitted logistic model's logit, so the trees only learn what the linear model cannot (the
// interactions of rank, score and coverage). Scored by workers/answer/fitted.ts. Node only.
import type { BoostTree, LogisticModel } from '../workers/answer/fitted';
import { treeValue } from '../workers/answer/fitted';
import { fitLogistic } from '../eval/logistic';

export interface BoostOptions {
  trees: number;
  depth: number;
  rate: number;
  /** L2 penalty on leaf values. */
  l2: number;
  /** Fewest rows in a leaf. */
  minLeaf: number;
  /** Split candidates per feature (quantiles of the training values). */
  bins: number;
}

export const DEFAULT_BOOST: BoostOptions = {
  trees: 200,
  depth: 5,
  rate: 0.05,
  l2: 1,
  minLeaf: 20,
  bins: 64,
};

const finite = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v : 0);
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Distinct quantile cut points of a column (a value <= cut goes left). */
function quantileCuts(values: number[], bins: number): number[] {
  const s = [...values].sort((a, b) => a - b);
  const cuts = new Set<number>();
  for (let k = 1; k < bins; k++) {
    const v = s[Math.floor((k / bins) * (s.length - 1))]!;
    if (v < s[s.length - 1]!) cuts.add(r6(v));
  }
  return [...cuts].sort((a, b) => a - b);
}

/** Bin index of each value: the first cut it is <= to (cuts.length when above all). */
function binOf(v: number, cuts: number[]): number {
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v <= cuts[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

interface Grower {
  bins: Uint16Array[];
  cuts: number[][];
  g: Float64Array;
  h: Float64Array;
  o: BoostOptions;
}

function bestSplit(G: Grower, idx: number[], gSum: number, hSum: number) {
  const { o } = G;
  let best = { gain: 1e-9, f: -1, bin: -1 };
  const parent = (gSum * gSum) / (hSum + o.l2);
  G.cuts.forEach((cuts, f) => {
    const nb = cuts.length + 1;
    const hg = new Float64Array(nb);
    const hh = new Float64Array(nb);
    const hc = new Uint32Array(nb);
    const col = G.bins[f]!;
    for (const i of idx) {
      const b = col[i]!;
      hg[b] = hg[b]! + G.g[i]!;
      hh[b] = hh[b]! + G.h[i]!;
      hc[b]!++;
    }
    let gl = 0;
    let hl = 0;
    let cl = 0;
    for (let b = 0; b < nb - 1; b++) {
      gl += hg[b]!;
      hl += hh[b]!;
      cl += hc[b]!;
      if (cl < o.minLeaf) continue;
      if (idx.length - cl < o.minLeaf) break;
      const gr = gSum - gl;
      const hr = hSum - hl;
      const gain = (gl * gl) / (hl + o.l2) + (gr * gr) / (hr + o.l2) - parent;
      if (gain > best.gain) best = { gain, f, bin: b };
    }
  });
  return best;
}

function growTree(G: Grower, idx: number[]): BoostTree {
  const tree: BoostTree = { f: [], t: [], l: [], r: [], v: [] };
  const grow = (rows: number[], depth: number): number => {
    const node = tree.f.length;
    let gSum = 0;
    let hSum = 0;
    for (const i of rows) {
      gSum += G.g[i]!;
      hSum += G.h[i]!;
    }
    tree.f.push(-1);
    tree.t.push(0);
    tree.l.push(-1);
    tree.r.push(-1);
    tree.v.push(Math.round(((-G.o.rate * gSum) / (hSum + G.o.l2)) * 1e5) / 1e5);
    if (depth >= G.o.depth || rows.length < 2 * G.o.minLeaf) return node;
    const s = bestSplit(G, rows, gSum, hSum);
    if (s.f < 0) return node;
    const col = G.bins[s.f]!;
    const left = rows.filter((i) => col[i]! <= s.bin);
    const right = rows.filter((i) => col[i]! > s.bin);
    tree.f[node] = s.f;
    tree.t[node] = G.cuts[s.f]![s.bin]!;
    tree.v[node] = 0;
    tree.l[node] = grow(left, depth + 1);
    tree.r[node] = grow(right, depth + 1);
    return node;
  };
  grow(idx, 0);
  return tree;
}

/** A logistic model over `names` plus boosted trees on its residuals. */
export function fitBoosted(
  names: readonly string[],
  rows: Array<Record<string, number>>,
  labels: boolean[],
  options: Partial<BoostOptions> = {},
): LogisticModel {
  const o = { ...DEFAULT_BOOST, ...options };
  const model = fitLogistic(names, rows, labels, 1);
  const X = rows.map((r) => names.map((n) => finite(r[n])));
  const cuts = names.map((_, j) =>
    quantileCuts(
      X.map((x) => x[j]!),
      o.bins,
    ),
  );
  const bins = names.map((_, j) => Uint16Array.from(X, (x) => binOf(x[j]!, cuts[j]!)));
  const z = Float64Array.from(X, (x) =>
    x.reduce(
      (a, v, j) => a + (model.weights[j]! * (v - model.mean[j]!)) / model.scale[j]!,
      model.bias,
    ),
  );
  const G: Grower = {
    bins,
    cuts,
    g: new Float64Array(X.length),
    h: new Float64Array(X.length),
    o,
  };
  const all = X.map((_, i) => i);
  const trees: BoostTree[] = [];
  for (let t = 0; t < o.trees; t++) {
    for (let i = 0; i < X.length; i++) {
      const p = 1 / (1 + Math.exp(-z[i]!));
      G.g[i] = p - (labels[i] ? 1 : 0);
      G.h[i] = Math.max(p * (1 - p), 1e-6);
    }
    const tree = growTree(G, all);
    trees.push(tree);
    for (let i = 0; i < X.length; i++) z[i] = z[i]! + treeValue(tree, X[i]!);
  }
  return { ...model, trees };
}
