#!/usr/bin/env python3
"""Fits a cross-encoder stance model: all-MiniLM-L6-v2 reading "[CLS] claim [SEP] evidence [SEP]"
jointly (token types 0/1), with LoRA adapters on the top layers and a 3-way head (SUPPORT,
CONTRADICT, NEUTRAL), on SciFact claims_TRAIN only (issue 17, stage 1 of the cross-encoder plan).

  npx tsx experiments/stance-cross-data.ts --dataset ../shared/datasets/scifact --out /tmp/cross.jsonl
  python3 experiments/fit-stance-cross.py --data /tmp/cross.jsonl [--folds 0,1,2,3,4] [--layers 2] [--rank 8]
      [--synth 2] [--synth-kinds sentence] [--kinds sentence,negative] [--preds FILE]

Examples per oracle instance (as the claims eval builds them): the instance itself (claim with its
evidence sentences concatenated, the instance label), each evidence sentence alone (instance label)
and, for SUPPORT/CONTRADICT abstracts, two BM25-closest non-rationale sentences (NEUTRAL).
Model selection: folds by claim id % 5 (the same folds as ml/stance-fit.ts); the printed
figure is the oracle 3-way macro-F1 of the held-out instances, predicted from the concatenated
evidence (`concat`) and from the summed per-sentence log-probabilities (`per-sentence`, what the
product's evidence judge does). Deterministic: seeded, fixed order, CPU.
--synth N adds up to N flipped versions of each claim the export carries (ml/stance-synth.ts, as stance-fit.ts
uses them) to the training folds: a flipped evidence claim takes the opposite label on its evidence
(each sentence, and the concatenation) and NEUTRAL on the two negatives; an NEI claim's flips stay
NEUTRAL on its sentences. A claim's flips are in its own fold, so held-out claims are never seen.
--preds FILE writes each held-out instance's log-probabilities (concat, and one row per evidence
sentence) as JSON lines, to compare with or ensemble with the logistic model
(experiments/stance-cross-ensemble.py).

The bottom (6 - layers) transformer layers are frozen without adapters, so their outputs are computed
once and cached; only the top layers run forward/backward in training (2 shared CPU cores).
Needs torch (CPU) and safetensors; no transformers.
"""
import argparse
import json
import math
import os
import random
import sys
import time

import torch
import torch.nn.functional as F
from safetensors.torch import load_file

LABELS = ["SUPPORT", "CONTRADICT", "NEUTRAL"]
CLS, SEP = 101, 102
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pair(claim, evidence, max_len):
    """[CLS] claim [SEP] evidence [SEP] with token types; the evidence is truncated first."""
    claim = claim[: max_len // 2]
    room = max_len - 3 - len(claim)
    ev = evidence[:room]
    ids = [CLS] + claim + [SEP] + ev + [SEP]
    types = [0] * (len(claim) + 2) + [1] * (len(ev) + 1)
    return ids, types


class Lora(torch.nn.Module):
    """y = x W^T + b + (x A^T) B^T * (alpha / r); W, b frozen; B starts at zero."""

    def __init__(self, w, b, rank, alpha, gen):
        super().__init__()
        self.w, self.b = w, b
        out_f, in_f = w.shape
        self.rank = rank
        if rank > 0:
            self.A = torch.nn.Parameter(torch.randn(rank, in_f, generator=gen) / math.sqrt(in_f))
            self.B = torch.nn.Parameter(torch.zeros(out_f, rank))
            self.scale = alpha / rank

    def forward(self, x):
        y = F.linear(x, self.w, self.b)
        if self.rank > 0:
            y = y + F.linear(F.linear(x, self.A), self.B) * self.scale
        return y


class Layer(torch.nn.Module):
    def __init__(self, W, i, rank, alpha, gen, heads=12):
        super().__init__()
        p = f"encoder.layer.{i}."
        mk = lambda n: Lora(W[p + n + ".weight"], W[p + n + ".bias"], rank, alpha, gen)
        self.q = mk("attention.self.query")
        self.k = mk("attention.self.key")
        self.v = mk("attention.self.value")
        self.o = mk("attention.output.dense")
        self.ln1 = (W[p + "attention.output.LayerNorm.weight"], W[p + "attention.output.LayerNorm.bias"])
        self.ff1 = mk("intermediate.dense")
        self.ff2 = mk("output.dense")
        self.ln2 = (W[p + "output.LayerNorm.weight"], W[p + "output.LayerNorm.bias"])
        self.heads = heads

    def forward(self, x, mask, drop):
        B, T, D = x.shape
        h = self.heads
        split = lambda t: t.view(B, T, h, D // h).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        s = q @ k.transpose(-1, -2) / math.sqrt(D // h) + mask
        a = F.dropout(torch.softmax(s, -1), drop, self.training)
        c = (a @ v).transpose(1, 2).reshape(B, T, D)
        x = F.layer_norm(x + F.dropout(self.o(c), drop, self.training), (D,), *self.ln1, eps=1e-12)
        f = self.ff2(F.gelu(self.ff1(x)))
        return F.layer_norm(x + F.dropout(f, drop, self.training), (D,), *self.ln2, eps=1e-12)


def embed(W, ids, types):
    x = W["embeddings.word_embeddings.weight"][ids]
    x = x + W["embeddings.position_embeddings.weight"][: ids.shape[1]].unsqueeze(0)
    x = x + W["embeddings.token_type_embeddings.weight"][types]
    return F.layer_norm(
        x, (384,), W["embeddings.LayerNorm.weight"], W["embeddings.LayerNorm.bias"], eps=1e-12
    )


def batchify(seqs):
    T = max(len(s[0]) for s in seqs)
    ids = torch.zeros(len(seqs), T, dtype=torch.long)
    types = torch.zeros(len(seqs), T, dtype=torch.long)
    valid = torch.zeros(len(seqs), T)
    for n, (i, t) in enumerate(seqs):
        ids[n, : len(i)] = torch.tensor(i)
        types[n, : len(t)] = torch.tensor(t)
        valid[n, : len(i)] = 1
    return ids, types, valid


class Model(torch.nn.Module):
    def __init__(self, W, top, rank, alpha, seed, pool):
        super().__init__()
        gen = torch.Generator().manual_seed(seed)
        self.W = W
        self.frozen = 6 - top
        self.layers = torch.nn.ModuleList(
            [Layer(W, i, rank, alpha, gen) for i in range(self.frozen, 6)]
        )
        self.bottom = [Layer(W, i, 0, alpha, gen) for i in range(self.frozen)]
        self.head = torch.nn.Linear(384, 3)
        with torch.no_grad():
            self.head.weight.copy_(torch.randn(3, 384, generator=gen) * 0.02)
            self.head.bias.zero_()
        self.pool = pool

    @torch.no_grad()
    def lower(self, seqs):
        """Frozen part: embeddings and the bottom layers (no dropout), one tensor per sequence."""
        out = []
        t0 = time.time()
        for s in range(0, len(seqs), 32):
            if s and s % 640 == 0:
                print(f"  lower {s}/{len(seqs)} ({time.time() - t0:.0f} s)", file=sys.stderr, flush=True)
            chunk = seqs[s : s + 32]
            ids, types, valid = batchify(chunk)
            mask = (1 - valid)[:, None, None, :] * -1e9
            x = embed(self.W, ids, types)
            for L in self.bottom:
                L.eval()
                x = L(x, mask, 0.0)
            for n, (i, _) in enumerate(chunk):
                out.append(x[n, : len(i)].clone())
        return out

    def upper(self, xs, drop):
        T = max(x.shape[0] for x in xs)
        x = torch.zeros(len(xs), T, 384)
        valid = torch.zeros(len(xs), T)
        for n, h in enumerate(xs):
            x[n, : h.shape[0]] = h
            valid[n, : h.shape[0]] = 1
        mask = (1 - valid)[:, None, None, :] * -1e9
        for L in self.layers:
            x = L(x, mask, drop)
        if self.pool == "cls":
            pooled = x[:, 0]
        else:
            pooled = (x * valid[..., None]).sum(1) / valid.sum(1, keepdim=True)
        return self.head(F.dropout(pooled, drop, self.training))


def macro_f1(gold, pred, k=3):
    f = []
    for c in range(k):
        tp = sum(1 for g, p in zip(gold, pred) if g == c and p == c)
        P = sum(1 for p in pred if p == c)
        G = sum(1 for g in gold if g == c)
        f.append(0 if tp == 0 else 2 * tp / (P + G))
    return sum(f) / k


FLIP = [1, 0, 2]


def examples_of(inst, max_len, synth=0):
    y = LABELS.index(inst["label"])
    claims = [(inst["claim"], y, "")]
    claims += [(c, FLIP[y], "synth-") for c in inst.get("flipped", [])[:synth]]
    ex = []
    for claim, yc, tag in claims:
        ex.append((pair(claim, sum(inst["evidence"], []), max_len), yc, tag + "instance"))
        for e in inst["evidence"]:
            ex.append((pair(claim, e, max_len), yc, tag + "sentence"))
        for e in inst["negatives"]:
            ex.append((pair(claim, e, max_len), 2, tag + "negative"))
    return ex


def kind_of(tag):
    return tag[len("synth-"):] if tag.startswith("synth-") else tag


def train(model, cache, labels, args, log, probe=None):
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.01)
    counts = [max(1, labels.count(c)) for c in range(3)]
    cw = torch.tensor([len(labels) / (3 * n) for n in counts])
    rng = random.Random(args.seed)
    order = list(range(len(cache)))
    nb = math.ceil(len(order) / args.batch)
    steps = args.epochs * nb
    step = 0
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        rng.shuffle(order)
        # Length buckets (less padding on CPU): sort windows of 32 batches by length, then shuffle
        # the batches.
        w = 32 * args.batch
        order = [i for s in range(0, len(order), w)
                 for i in sorted(order[s : s + w], key=lambda i: cache[i].shape[0])]
        batches = [order[s : s + args.batch] for s in range(0, len(order), args.batch)]
        rng.shuffle(batches)
        total = 0.0
        for b in batches:
            logits = model.upper([cache[i] for i in b], args.dropout)
            y = torch.tensor([labels[i] for i in b])
            loss = F.cross_entropy(logits, y, weight=cw)
            opt.zero_grad()
            loss.backward()
            for g in opt.param_groups:  # linear warm-up 10 %, linear decay
                g["lr"] = args.lr * min((step + 1) / (0.1 * steps), (steps - step) / (0.9 * steps))
            opt.step()
            step += 1
            total += loss.item() * len(b)
            if step % 50 == 0:
                log(f"  step {step}/{steps} loss {loss.item():.4f} "
                    f"({(time.time() - t0) / step:.2f} s/step, load {os.getloadavg()[0]:.1f})")
        msg = f"  epoch {epoch + 1} loss {total / len(order):.4f} ({time.time() - t0:.0f} s)"
        if probe:  # diagnostic only: the reported figure is the last epoch's, nothing is selected
            msg += " held-out " + ", ".join(f"{k} {v:.4f}" for k, v in probe()[0].items())
        log(msg)


@torch.no_grad()
def predict(model, cache):
    model.eval()
    out = []
    for s in range(0, len(cache), 64):
        out.append(torch.log_softmax(model.upper(cache[s : s + 64], 0.0), -1))
    return torch.cat(out) if out else torch.zeros(0, 3)


def evaluate(model, insts, max_len, lower):
    """Oracle macro-F1 of instances: concatenated evidence, and summed per-sentence log-probs."""
    seqs, owner = [], []
    for k, inst in enumerate(insts):
        seqs.append(pair(inst["claim"], sum(inst["evidence"], []), max_len))
        owner.append((k, "instance"))
        for e in inst["evidence"]:
            seqs.append(pair(inst["claim"], e, max_len))
            owner.append((k, "sentence"))
    lp = predict(model, lower(seqs))
    concat = [None] * len(insts)
    per = [torch.zeros(3) for _ in insts]
    for (k, kind), row in zip(owner, lp):
        if kind == "instance":
            concat[k] = row
        else:
            per[k] += row
    gold = [LABELS.index(i["label"]) for i in insts]
    both = [int(torch.argmax(c + p)) for c, p in zip(concat, per)]
    sc = [k for k, g in enumerate(gold) if g < 2]
    rows = [[] for _ in insts]
    for (k, kind), row in zip(owner, lp):
        rows[k].append(row)
    preds = [{"claimId": i["claimId"], "docId": i["docId"], "label": i["label"],
              "concat": [round(float(v), 6) for v in rows[k][0]],
              "sentences": [[round(float(v), 6) for v in r] for r in rows[k][1:]]}
             for k, i in enumerate(insts)]
    return {
        "concat": macro_f1(gold, [int(torch.argmax(c)) for c in concat]),
        "per-sentence": macro_f1(gold, [int(torch.argmax(p)) for p in per]),
        "concat+sentences": macro_f1(gold, both),
        # SUPPORT vs CONTRADICT alone (stance_sc_macro_f1), per-sentence sums
        "sc-per-sentence": macro_f1([gold[k] for k in sc],
                                    [int(per[k][1] > per[k][0]) for k in sc], 2),
    }, preds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--weights", default=os.path.join(ROOT, ".cache/models/all-MiniLM-L6-v2/model.safetensors"))
    ap.add_argument("--layers", type=int, default=2, help="top layers with LoRA adapters")
    ap.add_argument("--rank", type=int, default=8)
    ap.add_argument("--alpha", type=float, default=16)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--dropout", type=float, default=0.1)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--pool", default="mean", choices=["mean", "cls"])
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--cv", type=int, default=5, help="how many of the 5 folds to hold out in turn")
    ap.add_argument("--folds", help="which folds to hold out, e.g. 0 or 1,2 (overrides --cv)")
    ap.add_argument("--synth", type=int, default=0,
                    help="train on up to this many flipped versions of each claim too (0: none)")
    ap.add_argument("--synth-kinds", default="instance,sentence,negative",
                    help="which example kinds to build for the flipped claims")
    ap.add_argument("--preds", help="write the held-out instances' log-probabilities here (JSON lines)")
    ap.add_argument("--probe", type=int, default=0, help="1: log held-out F1 after each epoch (diagnostic)")
    ap.add_argument("--kinds", default="instance,sentence,negative")
    ap.add_argument("--json", help="write the config and the per-fold figures here")
    ap.add_argument("--out", help="fit on all train instances and write the adapters here (.pt)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    log = lambda m: print(m, file=sys.stderr, flush=True)
    W = {k: v for k, v in load_file(args.weights).items()}
    insts = [json.loads(l) for l in open(args.data)]
    kinds = set(args.kinds.split(","))
    synth_kinds = set(args.synth_kinds.split(","))
    keep = lambda e: kind_of(e[2]) in (synth_kinds & kinds if e[2].startswith("synth") else kinds)
    folds = [int(f) for f in args.folds.split(",")] if args.folds else list(range(args.cv))
    log(f"[cross] {len(insts)} train instances; config {json.dumps(vars(args))}")
    base = Model(W, args.layers, 0, args.alpha, args.seed, args.pool)
    lower_cache = {}

    def lower(seqs):
        key = [tuple(i) + (-1,) + tuple(t) for i, t in seqs]
        miss = [s for s, k in zip(seqs, key) if k not in lower_cache]
        for s, h in zip(miss, base.lower(miss) if miss else []):
            lower_cache[tuple(s[0]) + (-1,) + tuple(s[1])] = h
        return [lower_cache[k] for k in key]

    t0 = time.time()
    results = []
    all_preds = []
    for f in folds:
        tf = time.time()
        tr = [i for i in insts if i["claimId"] % 5 != f]
        te = [i for i in insts if i["claimId"] % 5 == f]
        ex = [e for i in tr for e in examples_of(i, args.max_len, args.synth) if keep(e)]
        cache = lower([e[0] for e in ex])
        t_lower = time.time() - tf
        log(f"[cross] fold {f}: {len(ex)} training pairs ({sum(e[2].startswith('synth') for e in ex)} "
            f"synthetic), lower layers cached in {t_lower:.0f} s")
        model = Model(W, args.layers, args.rank, args.alpha, args.seed, args.pool)
        probe = (lambda: evaluate(model, te, args.max_len, lower)) if args.probe else None
        train(model, cache, [e[1] for e in ex], args, log, probe)
        r, preds = evaluate(model, te, args.max_len, lower)
        for p in preds:
            p["fold"] = f
        all_preds += preds
        secs = time.time() - tf
        results.append((f, len(te), len(ex), round(secs), r))
        log(f"[cross] fold {f}: {len(ex)} training pairs, held-out {len(te)} instances: "
            + ", ".join(f"{k} {v:.4f}" for k, v in r.items())
            + f" ({secs:.0f} s, load {os.getloadavg()[0]:.1f})")
    if args.preds:
        with open(args.preds, "w") as fh:
            fh.writelines(json.dumps(p) + "\n" for p in all_preds)
    if results:
        mean = {k: sum(r[k] for *_, r in results) / len(results) for k in results[0][-1]}
        log(f"[cross] cv mean over {len(results)} folds (oracle macro-F1): "
            + ", ".join(f"{k} {v:.4f}" for k, v in mean.items()))
        if args.json:
            with open(args.json, "w") as fh:
                json.dump({"config": vars(args),
                           "folds": [{"fold": f, "held_out": n, "training_pairs": m, "seconds": sec, **r}
                                     for f, n, m, sec, r in results],
                           "mean": mean, "seconds": round(time.time() - t0)}, fh, indent=2)
    if args.out:
        ex = [e for i in insts for e in examples_of(i, args.max_len, args.synth) if keep(e)]
        model = Model(W, args.layers, args.rank, args.alpha, args.seed, args.pool)
        train(model, lower([e[0] for e in ex]), [e[1] for e in ex], args, log)
        state = {k: v for k, v in model.state_dict().items() if k.startswith(("layers", "head"))}
        state = {k: v for k, v in state.items() if not k.endswith((".w", ".b"))}
        torch.save({"config": vars(args), "state": state}, args.out)
        log(f"[cross] wrote {args.out}")


if __name__ == "__main__":
    main()
