#!/usr/bin/env python3
"""Out-of-fold TRAIN checks behind the sentence checker's fit (issue 16; never reads test).

1. CHECKER_DUMP=/tmp/checker-train.json npm run eval -- --dataset ../shared/datasets/scifact \
     --task checker-fit --split train --model all-MiniLM-L6-v2   (writes the train pairs, their
     features and canonical vectors; restore the fitted file with git checkout afterwards)
2. python3 experiments/checker-explore.py /tmp/checker-train.json ../shared/datasets/scifact/corpus.jsonl \
     > reports/checker-explore-minilm-train.txt

Folds by claim as in ml/checker-fit.ts. For each candidate scorer it prints right-vs-hard
and right-vs-random AUROC, the share of right pairs callable supported at random flagged >= 0.98,
and the frontier: the best hard-flagged share at right-supported 0.60 .. 0.90 with random flagged
>= 0.98, with a cosine gate (supported iff cos >= gate and score >= cut). With the corpus file it
also measures what the cited strip's document context would add (a lexical approximation: the
claim's IDF-weighted word coverage by the strip with its title and 250 characters either side;
the checker does not receive this today). numpy only.
"""
import json
import sys

import numpy as np

Q = 32767.0
d = json.load(open(sys.argv[1]))
kinds = np.array([p["kind"] for p in d])
claims = sorted(set(p["sentence"] for p in d))
cid = {c: i for i, c in enumerate(claims)}
fold = np.array([(cid[p["sentence"]] * 7) % 5 for p in d])
y = (kinds == "right").astype(float)
R, H, X = kinds == "right", kinds == "hard", kinds == "random"
SV = np.array([p["sv"] for p in d]) / Q
# the nearest cited strip by cosine (what the checker's cos and stance cues use)
EV = np.array([np.array(p["ev"])[int(np.argmax(np.array(p["ev"]) @ np.array(p["sv"])))] for p in d]) / Q
base = ["cos", "covBest", "covPBest", "pairsBest", "numbersBest", "missMax", "missRare", "precBest"]
cues = [k for k in d[0]["row"] if k.startswith("st_") and not k[4:].isdigit() and k != "st_cosine"]
X0 = np.array([[p["row"].get(k, 0.0) for k in base + cues] for p in d])
cos = X0[:, 0]


def standardise(a, b):
    m, s = a.mean(0), a.std(0) + 1e-9
    return (a - m) / s, (b - m) / s


def logistic(a, t, b, l2=1.0):
    """L2 logistic regression by Newton steps (no penalty on the bias); scores b."""
    a, b = standardise(a, b)
    A = np.hstack([a, np.ones((len(a), 1))])
    w = np.zeros(A.shape[1])
    P = l2 * np.eye(A.shape[1])
    P[-1, -1] = 0
    for _ in range(50):
        p = 1 / (1 + np.exp(-A @ w))
        step = np.linalg.solve((A * (p * (1 - p))[:, None]).T @ A + P + 1e-8 * np.eye(len(w)), A.T @ (p - t) + P @ w)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return 1 / (1 + np.exp(-np.hstack([b, np.ones((len(b), 1))]) @ w))


def bilinear(a, t, b, U, V, Ub, Vb, r=16, lam=0.03, iters=400, lr=0.02):
    """Logistic on the features plus a learned low-rank similarity 10 (P u).(P v), Adam."""
    a, b = standardise(a, b)
    rng = np.random.default_rng(0)
    ps = [np.zeros(a.shape[1]), np.zeros(1), rng.normal(0, 0.01, (r, U.shape[1]))]
    m = [np.zeros_like(x) for x in ps]
    v = [np.zeros_like(x) for x in ps]
    for it in range(1, iters + 1):
        w, c, P = ps
        PU, PV = U @ P.T, V @ P.T
        g = (1 / (1 + np.exp(-(a @ w + c[0] + 10 * (PU * PV).sum(1)))) - t) / len(t)
        grads = [a.T @ g + 1e-3 * w, np.array([g.sum()]), 10 * ((PV * g[:, None]).T @ U + (PU * g[:, None]).T @ V) + lam * P]
        for i, gr in enumerate(grads):
            m[i] = 0.9 * m[i] + 0.1 * gr
            v[i] = 0.999 * v[i] + 0.001 * gr * gr
            ps[i] = ps[i] - lr * (m[i] / (1 - 0.9**it)) / (np.sqrt(v[i] / (1 - 0.999**it)) + 1e-8)
    w, c, P = ps
    return 1 / (1 + np.exp(-(b @ w + c[0] + 10 * ((Ub @ P.T) * (Vb @ P.T)).sum(1))))


def oof(F, mask=None, kind="logistic", **kw):
    s = np.zeros(len(y))
    mask = np.ones(len(y), bool) if mask is None else mask
    for k in range(5):
        tr, te = (fold != k) & mask, fold == k
        if kind == "logistic":
            s[te] = logistic(F[tr], y[tr], F[te], **kw)
        else:
            s[te] = bilinear(F[tr], y[tr], F[te], SV[tr], EV[tr], SV[te], EV[te], **kw)
    return s


def auc(pos, neg):
    r = np.concatenate([pos, neg]).argsort().argsort() + 1
    return (r[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))


def frontier(s, gated=True, targets=(0.6, 0.7, 0.8, 0.85, 0.9)):
    out = []
    for target in targets:
        best = None
        gates = np.quantile(cos[R], np.arange(0, 0.2, 0.0025)) if gated else [-9.0]
        for g in gates:
            ok = cos >= g
            sr = np.sort(s[R & ok])[::-1]
            need = int(np.ceil(target * R.sum()))
            if len(sr) < need:
                continue
            sup = ok & (s >= sr[need - 1])
            if 1 - sup[X].mean() < 0.98:
                continue
            best = max(best or 0, 1 - sup[H].mean())
        out.append("  -  " if best is None else f"{best:.3f}")
    return " ".join(out)


def report(name, s, gated=True):
    cut = np.sort(s[X])[int(np.ceil(0.98 * X.sum())) - 1]
    print(
        f"{name:58s} AUROC right/hard {auc(s[R], s[H]):.3f} right/random {auc(s[R], s[X]):.3f} | "
        f"right at random .98 {(s[R] > cut).mean():.3f} | hard flagged at right .60/.70/.80/.85/.90: {frontier(s, gated)}"
    )


print(f"{len(d)} train pairs: right {R.sum()}, hard {H.sum()}, random {X.sum()}; folds by claim")
print(f"right pairs whose best strip shares no content word with the claim: {(X0[R, 1] == 0).mean():.3f} (random: {(X0[X, 1] == 0).mean():.3f})")
print("('-': no cut reaches that right share with random flagged >= 0.98)\n")
report("cosine alone", cos, gated=False)
report("checker+cues logistic (the earlier shipped model), no gate", oof(X0), gated=False)
report("checker+cues logistic + cosine gate (shipped)", oof(X0))
report("checker+cues logistic on right vs hard + cosine gate", oof(X0, kinds != "random"))
report("checker+cues logistic on right vs random (best for random)", oof(X0, kinds != "hard"), gated=False)
dense = np.hstack([X0, SV * EV * 384, np.abs(SV - EV) * np.sqrt(384)])
for l2 in (100.0, 1000.0):
    report(f"+ stance dense block u*v, |u-v| (768), L2 {l2:g}", oof(dense, l2=l2))
for r, lam in ((4, 0.01), (16, 0.03), (64, 0.03)):
    report(f"+ learned low-rank similarity (P u).(P v), r {r}, L2 {lam}", oof(X0, kind="bilinear", r=r, lam=lam))
    report(f"  the same on right vs hard only", oof(X0, kinds != "random", kind="bilinear", r=r, lam=lam))

if len(sys.argv) > 2:
    import math
    import re

    docs = [json.loads(line) for line in open(sys.argv[2])]
    STOP = set(
        "the a an of in on and or to for with by from at as is are was were be been that this these "
        "those which it its we our not no than into between after before during within without".split()
    )

    def toks(t):
        return [w[:6] for w in re.findall(r"[a-z0-9]+", t.lower()) if w not in STOP and len(w) > 2]

    df = {}
    for doc in docs:
        for w in set(toks(doc["title"] + " " + doc["text"])):
            df[w] = df.get(w, 0) + 1
    idf = lambda w: math.log((len(docs) + 1) / (df.get(w, 0) + 0.5))  # noqa: E731
    where = {}

    def context(strip, window):
        if strip not in where:
            where[strip] = next(((doc, doc["text"].find(strip[:60])) for doc in docs if strip[:60] in doc["text"]), None)
        if where[strip] is None:
            return strip
        doc, i = where[strip]
        return doc["title"] + " " + doc["text"][max(0, i - window) : i + len(strip) + window]

    def coverage(claim, text):
        c, t = set(toks(claim)), set(toks(text))
        return sum(idf(w) for w in c if w in t) / (sum(idf(w) for w in c) or 1)

    near = [p["evidence"][int(np.argmax(np.array(p["ev"]) @ np.array(p["sv"])))] for p in d]
    C = np.array(
        [[coverage(p["sentence"], s), coverage(p["sentence"], context(s, 0)), coverage(p["sentence"], context(s, 250))] for p, s in zip(d, near)]
    )
    print(f"\ncontext (lexical approximation; {sum(v is not None for v in where.values())} of {len(where)} strips located in the corpus)")
    for j, name in enumerate(["the strip alone", "strip + its document's title", "strip + title + 250 characters either side"]):
        print(f"  coverage by {name:44s} AUROC right/hard {auc(C[R, j], C[H, j]):.3f} right/random {auc(C[R, j], C[X, j]):.3f}; right pairs with none {(C[R, j] == 0).mean():.3f}")
    report("shipped features + coverage by strip + title", oof(np.hstack([X0, C[:, [1]]])))
    report("shipped features + coverage by strip + title + 250 characters", oof(np.hstack([X0, C[:, [2]]])))
    report("shipped features + all three coverages", oof(np.hstack([X0, C])))
