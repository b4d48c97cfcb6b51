// Classification metrics for the stance model and `--task claims`: per-class and macro F1, and
// precision/recall/F1 from counts. Pure; Node only by location.

export interface Prf {
  precision: number;
  recall: number;
  f1: number;
}

export function prf(truePositives: number, predicted: number, gold: number): Prf {
  const precision = predicted ? truePositives / predicted : 0;
  const recall = gold ? truePositives / gold : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

/** Macro F1 over `labels` (each label's F1 treating it as the positive class). */
export function macroF1<T>(gold: T[], pred: T[], labels: readonly T[]): number {
  let sum = 0;
  for (const l of labels) {
    let tp = 0;
    let p = 0;
    let g = 0;
    gold.forEach((x, i) => {
      if (pred[i] === l) p++;
      if (x === l) g++;
      if (x === l && pred[i] === l) tp++;
    });
    sum += prf(tp, p, g).f1;
  }
  return sum / labels.length;
}

export function confusion<T extends string>(gold: T[], pred: T[]): Record<string, number> {
  const out: Record<string, number> = {};
  gold.forEach((g, i) => {
    const key = `${g}->${pred[i]}`;
    out[key] = (out[key] ?? 0) + 1;
  });
  return out;
}
