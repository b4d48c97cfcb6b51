#!/usr/bin/env python3
"""Compares, on the same held-out train claims, the shipped logistic stance model and the fitted
cross-encoder, and their parameter-free ensembles, under the oracle protocol (issue 17):

  npx tsx ml/stance-fit.ts --dataset ../shared/datasets/scifact --splits 1 \\
    --grid '[{"dense":false,"l2":0.1,"hidden":0,"synthetic":0.3,"syntheticNeutral":0.6,"negatives":2}]' \\
    --cvDump /tmp/lr-oof.jsonl
  python3 experiments/fit-stance-cross.py --data /tmp/cross.jsonl --folds 0 ... --preds /tmp/ce.jsonl
  python3 experiments/stance-cross-ensemble.py /tmp/lr-oof.jsonl /tmp/ce.jsonl [--json FILE]

Both files hold one line per oracle instance with one log-probability row (SUPPORT, CONTRADICT,
NEUTRAL) per evidence sentence; LR's rows are out-of-fold (folds by claim id % 5). An instance's
label is the argmax of its summed per-sentence log-probabilities (combineStances in
workers/projects/stance-model.ts). Ensembles, nothing fitted: `mean-logp` averages the two models'
log-probabilities per sentence; `mean-prob` averages their probabilities. Scores: 3-way macro-F1
(stance_macro_f1_oracle) and SUPPORT-vs-CONTRADICT macro-F1 over the evidence instances
(stance_sc_macro_f1: the larger of the two summed log-probabilities).
"""
import json
import math
import sys

LABELS = ["SUPPORT", "CONTRADICT", "NEUTRAL"]


def macro_f1(gold, pred, k):
    f = []
    for c in range(k):
        tp = sum(1 for g, p in zip(gold, pred) if g == c and p == c)
        P = sum(1 for p in pred if p == c)
        G = sum(1 for g in gold if g == c)
        f.append(0 if tp == 0 else 2 * tp / (P + G))
    return sum(f) / k


def summed(rows):
    return [sum(r[k] for r in rows) for k in range(3)]


def scores(gold, sums):
    pred = [max(range(3), key=lambda k: s[k]) for s in sums]
    sc = [i for i, g in enumerate(gold) if g < 2]
    conf = [[sum(1 for g, p in zip(gold, pred) if g == a and p == b) for b in range(3)] for a in range(3)]
    return {
        "macro_f1": round(macro_f1(gold, pred, 3), 4),
        "sc_macro_f1": round(macro_f1([gold[i] for i in sc], [int(sums[i][1] > sums[i][0]) for i in sc], 2), 4),
        "confusion_gold_rows_SCN": conf,
    }


def mean_logp(a, b):
    return [[(x + y) / 2 for x, y in zip(ra, rb)] for ra, rb in zip(a, b)]


def mean_prob(a, b):
    return [[math.log((math.exp(x) + math.exp(y)) / 2) for x, y in zip(ra, rb)] for ra, rb in zip(a, b)]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    out = sys.argv[sys.argv.index("--json") + 1] if "--json" in sys.argv else None
    if out:
        args.remove(out)
    lr = {(r["claimId"], r["docId"]): r for r in map(json.loads, open(args[0]))}
    ce = [json.loads(l) for l in open(args[1])]
    folds = sorted({r["fold"] for r in ce})
    report = {"lr_all_folds": {}, "folds": {}}
    for f in range(5):
        rs = [r for r in lr.values() if r["fold"] == f]
        report["lr_all_folds"][f] = scores([LABELS.index(r["label"]) for r in rs],
                                           [summed(r["sentences"]) for r in rs])["macro_f1"]
    pooled = {m: [] for m in ("gold", "lr", "ce", "ce_concat", "mean-logp", "mean-prob")}
    for f in folds + ["pooled"]:
        if f == "pooled":
            if len(folds) < 2:
                break
            gold, sums = pooled["gold"], pooled
        else:
            rows = [r for r in ce if r["fold"] == f]
            gold = [LABELS.index(r["label"]) for r in rows]
            sums = {"lr": [], "ce": [], "ce_concat": [], "mean-logp": [], "mean-prob": []}
            for r in rows:
                l = lr[(r["claimId"], r["docId"])]
                assert l["label"] == r["label"] and l["fold"] == f
                assert len(l["sentences"]) == len(r["sentences"]), (r["claimId"], r["docId"])
                a, b = l["sentences"], r["sentences"]
                sums["lr"].append(summed(a))
                sums["ce"].append(summed(b))
                sums["ce_concat"].append(r["concat"])
                sums["mean-logp"].append(summed(mean_logp(a, b)))
                sums["mean-prob"].append(summed(mean_prob(a, b)))
            pooled["gold"] += gold
            for k, v in sums.items():
                pooled[k] += v
        res = {m: scores(gold, sums[m]) for m in ("lr", "ce", "ce_concat", "mean-logp", "mean-prob")}
        res["held_out_instances"] = len(gold)
        report["folds"][f] = res
        print(f"fold {f} ({len(gold)} instances): " + ", ".join(
            f"{m} {v['macro_f1']:.4f} (SC {v['sc_macro_f1']:.4f})" for m, v in res.items() if isinstance(v, dict)))
    print("LR per fold (all five):", report["lr_all_folds"])
    if out:
        with open(out, "w") as fh:
            json.dump(report, fh, indent=2)


if __name__ == "__main__":
    main()
