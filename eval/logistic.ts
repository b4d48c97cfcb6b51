// Fitting and scoring for the crag task: L2-regularised logistic regression by Newton's method
// (few features, thousands of rows), AUROC, balanced accuracy, F1, percentiles. Node only.
import type { LogisticModel } from '../workers/answer/fitted';

export function fitLogistic(
  names: readonly string[],
  rows: Array<Record<string, number>>,
  labels: boolean[],
  l2 = 1,
): LogisticModel {
  const d = names.length;
  const X = rows.map((r) => names.map((n) => (Number.isFinite(r[n]) ? r[n]! : 0)));
  const mean = names.map((_, j) => X.reduce((a, x) => a + x[j]!, 0) / Math.max(1, X.length));
  const scale = names.map(
    (_, j) =>
      Math.sqrt(X.reduce((a, x) => a + (x[j]! - mean[j]!) ** 2, 0) / Math.max(1, X.length)) || 1,
  );
  const Z = X.map((x) => [1, ...x.map((v, j) => (v - mean[j]!) / scale[j]!)]);
  const w = new Array<number>(d + 1).fill(0);
  for (let iter = 0; iter < 50; iter++) {
    const g = new Array<number>(d + 1).fill(0);
    const H = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    Z.forEach((z, i) => {
      const p = 1 / (1 + Math.exp(-z.reduce((a, v, j) => a + v * w[j]!, 0)));
      const y = labels[i] ? 1 : 0;
      const s = p * (1 - p);
      for (let j = 0; j <= d; j++) {
        g[j]! += (p - y) * z[j]!;
        for (let k = 0; k <= j; k++) H[j]![k]! += s * z[j]! * z[k]!;
      }
    });
    for (let j = 0; j <= d; j++) {
      for (let k = 0; k < j; k++) H[k]![j] = H[j]![k]!;
      if (j > 0) {
        g[j]! += l2 * w[j]!;
        H[j]![j]! += l2;
      }
      H[j]![j]! += 1e-9;
    }
    const step = solve(H, g);
    let change = 0;
    for (let j = 0; j <= d; j++) {
      w[j]! -= step[j]!;
      change = Math.max(change, Math.abs(step[j]!));
    }
    if (change < 1e-8) break;
  }
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return {
    features: [...names],
    weights: w.slice(1).map(round),
    bias: round(w[0]!),
    mean: mean.map(round),
    scale: scale.map(round),
  };
}

function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((r, i) => [...r, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
    [M[c], M[p]] = [M[p]!, M[c]!];
    const piv = M[c]![c]! || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / piv;
      for (let k = c; k <= n; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  return M.map((r, i) => r[n]! / (r[i]! || 1e-12));
}

/** Area under the ROC curve (ties count half). */
export function auroc(scores: number[], labels: boolean[]): number {
  const idx = scores.map((s, i) => [s, labels[i] ? 1 : 0] as const).sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  let pos = 0;
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j < idx.length && idx[j]![0] === idx[i]![0]) j++;
    const avg = (i + j + 1) / 2;
    for (let k = i; k < j; k++)
      if (idx[k]![1]) {
        rankSum += avg;
        pos++;
      }
    i = j;
  }
  const neg = idx.length - pos;
  return pos && neg ? (rankSum - (pos * (pos + 1)) / 2) / (pos * neg) : 0.5;
}

export function classify(scores: number[], labels: boolean[], t: number) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  scores.forEach((s, i) => {
    const p = s >= t;
    if (p && labels[i]) tp++;
    else if (p) fp++;
    else if (labels[i]) fn++;
    else tn++;
  });
  const tpr = tp / Math.max(1, tp + fn);
  const tnr = tn / Math.max(1, tn + fp);
  const precision = tp / Math.max(1, tp + fp);
  return {
    balancedAccuracy: (tpr + tnr) / 2,
    f1: tp ? (2 * precision * tpr) / (precision + tpr) : 0,
    precision,
    recall: tpr,
  };
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export const round4 = (x: number) => Math.round(x * 10000) / 10000;
