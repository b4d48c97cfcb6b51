// Fitting the stance model (offline, Node): class-weighted multinomial logistic regression or a
// tiny one-hidden-layer MLP, full-batch Adam from a seeded initialisation, so the same data give
// the same weights; then int16 quantisation into the shipped format (workers/projects/stance-model.ts).
// Only ml/stance-fit.ts calls this; product code must not.
import { mulberry32 } from '../workers/embed/rng.testkit';
import type { FittedLayer } from '../workers/projects/stance-model';

export interface TrainOptions {
  l2: number;
  hidden: number; // 0 = logistic regression
  epochs: number;
  learningRate: number;
  seed: number;
}

export interface Standardiser {
  mean: number[];
  std: number[];
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function standardiser(rows: Float64Array[]): Standardiser {
  const d = rows[0]!.length;
  const mean = new Array<number>(d).fill(0);
  const std = new Array<number>(d).fill(0);
  for (const r of rows) for (let i = 0; i < d; i++) mean[i]! += r[i]! / rows.length;
  for (const r of rows)
    for (let i = 0; i < d; i++) std[i]! += (r[i]! - mean[i]!) ** 2 / rows.length;
  return {
    mean: mean.map(round6),
    std: std.map((v) => round6(Math.max(Math.sqrt(v), 1e-3))),
  };
}

export function standardise(rows: Float64Array[], s: Standardiser): Float64Array[] {
  return rows.map((r) => r.map((v, i) => (v - s.mean[i]!) / s.std[i]!));
}

interface Layer {
  w: Float64Array; // [out][in]
  b: Float64Array;
  inputs: number;
  outputs: number;
}

/**
 * Fits on standardised rows; labels 0..classes-1; optional per-row weights (synthetic pairs count
 * less than real ones; default 1); returns float layers.
 */
export function fitNetwork(
  X: Float64Array[],
  y: number[],
  classes: number,
  opt: TrainOptions,
  weights?: number[],
): Layer[] {
  const sw = weights ?? y.map(() => 1);
  const total = sw.reduce((a, b) => a + b, 0);
  const rand = mulberry32(opt.seed);
  const d = X[0]!.length;
  const sizes = opt.hidden > 0 ? [d, opt.hidden, classes] : [d, classes];
  const layers: Layer[] = [];
  for (let l = 0; l + 1 < sizes.length; l++) {
    const inputs = sizes[l]!;
    const outputs = sizes[l + 1]!;
    const scale = opt.hidden > 0 ? Math.sqrt(2 / inputs) : 0;
    const w = new Float64Array(inputs * outputs).map(() => (rand() * 2 - 1) * scale);
    layers.push({ w, b: new Float64Array(outputs), inputs, outputs });
  }
  // Class weights: every class contributes equally (the goal is macro-F1).
  const counts = new Array<number>(classes).fill(0);
  y.forEach((c, n) => (counts[c]! += sw[n]!));
  const cw = counts.map((n) => (n ? total / (classes * n) : 0));
  const m = layers.map((L) => ({
    w: new Float64Array(L.w.length),
    b: new Float64Array(L.b.length),
  }));
  const v = layers.map((L) => ({
    w: new Float64Array(L.w.length),
    b: new Float64Array(L.b.length),
  }));
  const b1 = 0.9;
  const b2 = 0.999;
  for (let epoch = 1; epoch <= opt.epochs; epoch++) {
    const grads = layers.map((L) => ({
      w: new Float64Array(L.w.length),
      b: new Float64Array(L.b.length),
    }));
    for (let n = 0; n < X.length; n++) {
      const acts: Float64Array[] = [X[n]!];
      for (let l = 0; l < layers.length; l++)
        acts.push(affine(layers[l]!, acts[l]!, l < layers.length - 1));
      const out = acts[acts.length - 1]!;
      const p = softmax(out);
      const wn = (cw[y[n]!]! * sw[n]!) / total;
      if (wn === 0) continue;
      let delta = p.map((pk, k) => (pk - (k === y[n] ? 1 : 0)) * wn);
      for (let l = layers.length - 1; l >= 0; l--) {
        const L = layers[l]!;
        const a = acts[l]!;
        const g = grads[l]!;
        const prev = new Float64Array(L.inputs);
        for (let o = 0; o < L.outputs; o++) {
          const dl = delta[o]!;
          if (dl === 0) continue;
          g.b[o]! += dl;
          const row = o * L.inputs;
          for (let i = 0; i < L.inputs; i++) {
            g.w[row + i]! += dl * a[i]!;
            prev[i]! += dl * L.w[row + i]!;
          }
        }
        if (l > 0) delta = prev.map((x, i) => (a[i]! > 0 ? x : 0));
      }
    }
    const lr = opt.learningRate;
    layers.forEach((L, l) => {
      const g = grads[l]!;
      for (let i = 0; i < L.w.length; i++) g.w[i]! += opt.l2 * L.w[i]!;
      adam(L.w, g.w, m[l]!.w, v[l]!.w, epoch, lr, b1, b2);
      adam(L.b, g.b, m[l]!.b, v[l]!.b, epoch, lr, b1, b2);
    });
  }
  return layers;
}

function adam(
  p: Float64Array,
  g: Float64Array,
  m: Float64Array,
  v: Float64Array,
  t: number,
  lr: number,
  b1: number,
  b2: number,
): void {
  for (let i = 0; i < p.length; i++) {
    m[i] = b1 * m[i]! + (1 - b1) * g[i]!;
    v[i] = b2 * v[i]! + (1 - b2) * g[i]! * g[i]!;
    const mh = m[i]! / (1 - b1 ** t);
    const vh = v[i]! / (1 - b2 ** t);
    p[i]! -= (lr * mh) / (Math.sqrt(vh) + 1e-8);
  }
}

function affine(L: Layer, x: Float64Array, relu: boolean): Float64Array {
  const out = new Float64Array(L.outputs);
  for (let o = 0; o < L.outputs; o++) {
    let s = L.b[o]!;
    const row = o * L.inputs;
    for (let i = 0; i < L.inputs; i++) s += L.w[row + i]! * x[i]!;
    out[o] = relu && s < 0 ? 0 : s;
  }
  return out;
}

function softmax(z: Float64Array): Float64Array {
  const m = Math.max(...z);
  const e = z.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

/** int16 weights with one scale per layer (max |w| -> 32767); biases rounded to 1e-6. */
export function quantise(layers: Layer[]): FittedLayer[] {
  return layers.map((L) => {
    let max = 1e-12;
    for (const w of L.w) max = Math.max(max, Math.abs(w));
    const scale = 32767 / max;
    return {
      inputs: L.inputs,
      outputs: L.outputs,
      weights: Array.from(L.w, (w) => Math.round(w * scale)),
      scale: round6(scale),
      bias: Array.from(L.b, round6),
    };
  });
}
