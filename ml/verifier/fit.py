#!/usr/bin/env python3
"""Fits Sift's pair verifier: a BERT cross-encoder started from all-MiniLM-L6-v2 with a stance head
(SUPPORT / CONTRADICT / NEI) and a relevance head, on public claim-verification data (data.py).

Writes the bundle the app serves (format: ml/verifier/FORMAT.md): config.json, vocab.txt,
model.safetensors (int8 matrices with per-row scales) and manifest.json (code commit, data SHA-256s,
seed, hyper-parameters, held-out figures measured on the int8 weights, wall time).

usage: python3 ml/verifier/fit.py --base .cache/models/all-MiniLM-L6-v2 --datasets ../shared/datasets \
         --out public/models/sift-verifier-v1 [--steps N] [--seed 1]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, str(Path(__file__).parent))
import data as D  # noqa: E402
import bundle  # noqa: E402

LABELS = ["SUPPORT", "CONTRADICT", "NEI"]


class PairModel(nn.Module):
    def __init__(self, base: str):
        super().__init__()
        from transformers import BertModel

        self.bert = BertModel.from_pretrained(base, add_pooling_layer=False)
        h = self.bert.config.hidden_size
        self.drop = nn.Dropout(0.1)
        self.stance = nn.Linear(h, 3)
        self.relevance = nn.Linear(h, 1)

    def forward(self, ids, types, mask):
        out = self.bert(input_ids=ids, token_type_ids=types, attention_mask=mask).last_hidden_state
        cls = self.drop(out[:, 0])
        return self.stance(cls), self.relevance(cls).squeeze(-1)


def encode(tok, a: str, b: str, max_len: int, max_a: int) -> tuple[list[int], list[int]]:
    ia = tok(a, add_special_tokens=False)["input_ids"][:max_a]
    ib = tok(b, add_special_tokens=False)["input_ids"][: max(1, max_len - 3 - len(ia))]
    cls, sep = tok.cls_token_id, tok.sep_token_id
    ids = [cls] + ia + [sep] + ib + [sep]
    types = [0] * (len(ia) + 2) + [1] * (len(ib) + 1)
    return ids, types


def split(examples: list[D.Example], seed: int, share: float) -> tuple[list, list]:
    """Held-out claims (whole groups) for the train-side figures."""
    groups = sorted({e.group for e in examples})
    rng = random.Random(seed)
    held = set(rng.sample(groups, int(len(groups) * share)))
    return [e for e in examples if e.group not in held], [e for e in examples if e.group in held]


def batches(rows: list, bs: int, rng: random.Random) -> list[list]:
    """Length-bucketed batches (less padding), in random order."""
    idx = list(range(len(rows)))
    rng.shuffle(idx)
    out = []
    for s in range(0, len(idx), bs * 50):
        block = sorted(idx[s : s + bs * 50], key=lambda i: len(rows[i][0]))
        out += [block[k : k + bs] for k in range(0, len(block), bs)]
    rng.shuffle(out)
    return out


def collate(rows: list, pick: list[int]):
    n = max(len(rows[i][0]) for i in pick)
    ids = torch.zeros(len(pick), n, dtype=torch.long)
    types = torch.zeros(len(pick), n, dtype=torch.long)
    mask = torch.zeros(len(pick), n, dtype=torch.long)
    lab = torch.tensor([rows[i][2] for i in pick], dtype=torch.long)
    for r, i in enumerate(pick):
        k = len(rows[i][0])
        ids[r, :k] = torch.tensor(rows[i][0])
        types[r, :k] = torch.tensor(rows[i][1])
        mask[r, :k] = 1
    return ids, types, mask, lab


def loss_of(stance_logits, rel_logits, lab, weights):
    stance, entail, rel = lab[:, 0], lab[:, 1], lab[:, 2]
    total = stance_logits.new_zeros(())
    m = stance >= 0
    if m.any():
        total = total + F.cross_entropy(stance_logits[m], stance[m], weight=weights)
    m = entail >= 0
    if m.any():
        logp = F.log_softmax(stance_logits[m], -1)
        p_sup = logp[:, 0]
        p_not = torch.logsumexp(logp[:, 1:], -1)
        total = total + F.nll_loss(torch.stack([p_not, p_sup], 1), entail[m])
    m = rel >= 0
    if m.any():
        total = total + F.binary_cross_entropy_with_logits(rel_logits[m], rel[m].float())
    return total


@torch.no_grad()
def predict(model, rows: list, bs: int = 64):
    model.eval()
    probs, rels = [], []
    order = sorted(range(len(rows)), key=lambda i: len(rows[i][0]))
    out_p = [None] * len(rows)
    out_r = [None] * len(rows)
    for s in range(0, len(order), bs):
        pick = order[s : s + bs]
        ids, types, mask, _ = collate(rows, pick)
        sl, rl = model(ids, types, mask)
        p = F.softmax(sl, -1).tolist()
        r = torch.sigmoid(rl).tolist()
        for j, i in enumerate(pick):
            out_p[i], out_r[i] = p[j], r[j]
    model.train()
    return out_p, out_r


def f1(tp, fp, fn):
    return 0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn)


def macro_f1(gold: list[int], pred: list[int], classes: list[int]) -> tuple[float, list[float]]:
    per = []
    for c in classes:
        tp = sum(1 for g, p in zip(gold, pred) if g == c and p == c)
        fp = sum(1 for g, p in zip(gold, pred) if g != c and p == c)
        fn = sum(1 for g, p in zip(gold, pred) if g == c and p != c)
        per.append(f1(tp, fp, fn))
    return sum(per) / len(per), per


def auroc(scores: list[float], labels: list[int]) -> float:
    pairs = sorted(zip(scores, labels))
    pos = sum(labels)
    neg = len(labels) - pos
    if pos == 0 or neg == 0:
        return float("nan")
    rank_sum, i = 0.0, 0
    while i < len(pairs):
        j = i
        while j < len(pairs) and pairs[j][0] == pairs[i][0]:
            j += 1
        avg = (i + j + 1) / 2
        rank_sum += avg * sum(l for _, l in pairs[i:j])
        i = j
    return (rank_sum - pos * (pos + 1) / 2) / (pos * neg)


def figures(examples: list[D.Example], probs, rels) -> dict:
    out = {}
    for source in sorted({e.source for e in examples}) + ["all"]:
        sel = [i for i, e in enumerate(examples) if source in ("all", e.source)]
        st = [i for i in sel if examples[i].stance >= 0]
        f = {}
        if st:
            gold = [examples[i].stance for i in st]
            pred = [max(range(3), key=lambda c: probs[i][c]) for i in st]
            f["stance_n"] = len(st)
            f["stance_macro_f1"], per = macro_f1(gold, pred, [0, 1, 2])
            f["stance_f1_per_class"] = dict(zip(LABELS, per))
            sc = [i for i in st if examples[i].stance < 2]
            if sc:
                g2 = [examples[i].stance for i in sc]
                p2 = [0 if probs[i][0] >= probs[i][1] else 1 for i in sc]
                f["support_vs_contradict_f1"] = macro_f1(g2, p2, [0, 1])[0]
        en = [i for i in sel if examples[i].entail >= 0]
        if en:
            f["entail_accuracy"] = sum((probs[i][0] > 0.5) == (examples[i].entail == 1) for i in en) / len(en)
        rl = [i for i in sel if examples[i].relevant >= 0]
        if rl and len({examples[i].relevant for i in rl}) == 2:
            f["relevance_auroc"] = auroc([rels[i] for i in rl], [examples[i].relevant for i in rl])
            f["relevance_accuracy"] = sum((rels[i] > 0.5) == (examples[i].relevant == 1) for i in rl) / len(rl)
        out[source] = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in f.items()} if f else None
        if isinstance(out[source], dict) and "stance_f1_per_class" in out[source]:
            out[source]["stance_f1_per_class"] = {k: round(v, 4) for k, v in f["stance_f1_per_class"].items()}
    return {k: v for k, v in out.items() if v}


def to_rows(tok, examples, max_len, max_a):
    rows = []
    for e in examples:
        ids, types = encode(tok, e.a, e.b, max_len, max_a)
        rows.append((ids, types, [e.stance, e.entail, e.relevant]))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default=".cache/models/all-MiniLM-L6-v2")
    ap.add_argument("--datasets", default="../shared/datasets")
    ap.add_argument("--offsets", default="eval/data/scifact-sentences.json")
    ap.add_argument("--out", default="public/models/sift-verifier-v1")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--steps", type=int, default=1300)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=4e-5)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--max-a", type=int, default=64)
    ap.add_argument("--held-out", type=float, default=0.1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--final", action="store_true", help="train on every example (no held-out split)")
    args = ap.parse_args()
    if not Path(args.offsets).exists() and Path("bench/eval/data/scifact-sentences.json").exists():
        args.offsets = "bench/eval/data/scifact-sentences.json"
    t0 = time.time()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.set_num_threads(args.threads)
    from transformers import BertTokenizerFast

    tok = BertTokenizerFast.from_pretrained(args.base)
    examples, hashes = D.build(Path(args.datasets), Path(args.offsets), args.seed)
    train, held = (examples, []) if args.final else split(examples, args.seed, args.held_out)
    print(f"examples {len(examples)}: train {len(train)}, held out {len(held)}", flush=True)
    rows = to_rows(tok, train, args.max_len, args.max_a)
    held_rows = to_rows(tok, held, args.max_len, args.max_a)

    model = PairModel(args.base)
    counts = [sum(1 for e in train if e.stance == c) for c in range(3)]
    weights = torch.tensor([sum(counts) / (3 * c) for c in counts], dtype=torch.float)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warm = int(args.steps * 0.06)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warm) * max(0.0, (args.steps - s) / max(1, args.steps - warm))
    )
    rng = random.Random(args.seed)
    step, plan, seen = 0, [], 0.0
    model.train()
    while step < args.steps:
        if not plan:
            plan = batches(rows, args.batch, rng)
        pick = plan.pop()
        ids, types, mask, lab = collate(rows, pick)
        sl, rl = model(ids, types, mask)
        loss = loss_of(sl, rl, lab, weights)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        seen = 0.98 * seen + 0.02 * loss.item() if step else loss.item()
        step += 1
        if step % 25 == 0:
            el = time.time() - t0
            print(f"step {step}/{args.steps} loss {seen:.4f} {el / 60:.1f} min", flush=True)
        if step % 400 == 0:
            torch.save(model.state_dict(), Path(args.out).with_suffix(".ckpt"))

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    bundle.write(model, args.base, out, args)
    figs = {}
    if held:
        probs, rels = predict(model, held_rows)
        figs["held_out_float"] = figures(held, probs, rels)
        qmodel = bundle.load_into(PairModel(args.base), out)
        probs, rels = predict(qmodel, held_rows)
        figs["held_out_int8"] = figures(held, probs, rels)
        print(json.dumps(figs["held_out_int8"]["all"], indent=1))
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    manifest = {
        "producer": "ml/verifier/fit.py",
        "command": "python3 " + " ".join(sys.argv),
        "code_commit": commit,
        "data_sha256": hashes,
        "seed": args.seed,
        "hyper_parameters": {k: v for k, v in vars(args).items() if k not in ("base", "datasets", "out", "offsets")},
        "examples": {"total": len(examples), "train": len(train), "held_out": len(held)},
        "figures": figs,
        "wall_seconds": round(time.time() - t0),
        "torch": torch.__version__,
    }
    bundle.write_manifest(out, manifest)
    print(f"wrote {out} in {(time.time() - t0) / 60:.1f} min", flush=True)


if __name__ == "__main__":
    main()
