#!/usr/bin/env python3
"""Fits the citation audit's calibration on TRAIN citations and stores it in the stance model file.

1. npm run eval -- --dataset ../shared/datasets/scifact --task claims --model use-lite \
     --split train --skipPipeline 1 --dumpAudit .cache/fit/audit-use-lite.jsonl
   (one line per citation: right = gold evidence abstract (1) or a random other abstract (0), and
   the judge's max 1-P(NEUTRAL), max cosine, max claim-word overlap)
2. python3 ml/fit-audit.py .cache/fit/audit-use-lite.jsonl workers/fitted/stance-use-lite.json

Logistic regression (L2, C=1) solved exactly by Newton's method in numpy: the same numbers for the
same input on every machine. The product
evaluates sigmoid(w.x + b) in TypeScript (workers/projects/audit.ts) from the stored numbers.
"""
import json, sys
import numpy as np
def fit_logistic(X, y, C=1.0):
    """L2 logistic regression (C=1, intercept unpenalised) solved to its optimum by Newton's method.

    One solver everywhere: scikit-learn's lbfgs stops at a tolerance, so the numbers would depend
    on whether it is installed (the shipped audit differed by up to 0.018 between the two)."""
    A = np.hstack([X, np.ones((len(X), 1))])
    w = np.zeros(A.shape[1])
    reg = np.eye(A.shape[1]) / C
    reg[-1, -1] = 0
    for _ in range(100):
        p = 1 / (1 + np.exp(-A @ w))
        g = A.T @ (p - y) + reg @ w
        H = A.T @ (A * (p * (1 - p))[:, None]) + reg
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-12:
            break
    return w[:-1], w[-1]


dump, model_path = sys.argv[1], sys.argv[2]
rows = [json.loads(l) for l in open(dump) if l.strip()]
X = np.array([[r["notNeutral"], r["cosine"], r["overlap"]] for r in rows])
y = np.array([r["right"] for r in rows])
coef, intercept = fit_logistic(X, y)
w = [round(float(v), 6) for v in coef]
model = json.load(open(model_path))
model["audit"] = {"intercept": round(float(intercept), 6), "notNeutral": w[0], "cosine": w[1], "overlap": w[2]}
# A few rows with the probabilities computed from the ROUNDED numbers, so the TypeScript
# test (workers/projects/evidence.test.ts) can check it reproduces them.
a = model["audit"]
def prob(x):
    z = a["intercept"] + a["notNeutral"] * x[0] + a["cosine"] * x[1] + a["overlap"] * x[2]
    return 1 / (1 + np.exp(-z))
model["auditCheck"] = [{"x": [float(v) for v in X[i]], "p": float(prob(X[i]))} for i in (0, 1, 2)]
exact = 1 / (1 + np.exp(-(X @ coef + intercept)))
assert all(abs(prob(X[i]) - exact[i]) < 1e-4 for i in range(len(X)))
p = exact > 0.7
print(json.dumps(model["audit"]), f"train: right pass {p[y == 1].mean():.3f}, wrong flagged {(~p[y == 0]).mean():.3f} ({len(rows)} citations)")
with open(model_path, "w") as f:
    json.dump(model, f, separators=(",", ":"))
    f.write("\n")
