#!/usr/bin/env python3
"""Train-only exploration of the stance model's synthetic flipped claims (ml/README.md,
"Synthetic flipped claims"): class-weighted multinomial logistic regression (scikit-learn; the same
objective as ml/stance-train.ts: mean of class- and row-weighted cross-entropy + L2/2)
over the cue features of the dump
  npx tsx ml/stance-fit.ts --dataset ../shared/datasets/scifact --model all-MiniLM-L6-v2 --dump /tmp/stance-dump.jsonl
scored by oracle macro-F1 on the real train instances, 5-fold by claim, over 5 fold assignments
(split 0: claim id % 5; others: md5 of "split:id" % 5, not the TypeScript script's hash).
  python3 experiments/stance-synth-cv.py /tmp/stance-dump.jsonl [synthetic,neutral ...]   e.g. 0,0 0.3,0.6
The dev claims are never read (the dump holds train claims only)."""
import hashlib, json, sys
import numpy as np
from sklearn.linear_model import LogisticRegression

R = [json.loads(l) for l in open(sys.argv[1])]
CUES = 49
X = np.array([r['x'][:CUES] for r in R]); y = np.array([r['y'] for r in R])
cid = np.array([int(r['c']) for r in R]); inst = np.array([r['i'] for r in R])
syn = np.array([r['syn'] for r in R]); nr = np.array([r['nr'] for r in R])
real = ((syn == 0) & ((inst >= 0) | (nr < 2))).astype(float)  # the two hard negatives, as shipped

def mf1(g, p, labels=(0, 1, 2)):
    out = []
    for k in labels:
        tp = ((g == k) & (p == k)).sum(); P = (p == k).sum(); G = (g == k).sum()
        out.append(0 if tp == 0 else 2 * tp / (P + G))
    return float(np.mean(out))

def cv(w, split, l2=0.1):
    fid = cid % 5 if split == 0 else np.array(
        [int(hashlib.md5(f"{split}:{c}".encode()).hexdigest(), 16) % 5 for c in cid])
    lp = np.zeros((len(R), 3))
    for f in range(5):
        tr = (fid != f) & (w > 0); te = fid == f
        m = X[tr].mean(0); s = np.maximum(X[tr].std(0), 1e-3)
        ww = w[tr]; yt = y[tr]
        cw = ww.sum() / (3 * np.array([ww[yt == k].sum() for k in range(3)]))
        clf = LogisticRegression(C=1 / (l2 * ww.sum()), max_iter=3000)
        clf.fit((X[tr] - m) / s, yt, sample_weight=ww * cw[yt])
        lp[te] = np.log(np.clip(clf.predict_proba((X[te] - m) / s), 1e-12, 1))
    n = inst.max() + 1; S = np.zeros((n, 3)); G = np.zeros(n, int)
    for i in np.where(inst >= 0)[0]:
        S[inst[i]] += lp[i]; G[inst[i]] = y[i]
    sc = G < 2
    return mf1(G, S.argmax(1)), mf1(G[sc], S[sc][:, :2].argmax(1), (0, 1))

for spec in sys.argv[2:] or ['0,0', '0.3,0.6']:
    a, b = map(float, spec.split(','))
    w = real + a * (syn == 1) + b * (syn == 2)
    res = np.array([cv(w, s) for s in range(5)])
    print(f"synthetic {a} neutral {b}: oracle {res[:, 0].round(4).tolist()} mean {res[:, 0].mean():.4f}; "
          f"SUPPORT vs CONTRADICT mean {res[:, 1].mean():.4f}", flush=True)
