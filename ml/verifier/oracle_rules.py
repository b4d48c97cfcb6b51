#!/usr/bin/env python3
"""Chooses how the verifier's per-sentence stances combine into one source's label, on SciFact TRAIN
claims the fit held out (never dev/test): the oracle instances of `--task claims` (gold rationale
sentences; NEI: the three sentences of a cited abstract that share most words with the claim).

usage: python3 ml/verifier/oracle_rules.py --bundle public/models/sift-verifier-v1 [--datasets ../shared/datasets]
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import random
import re
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
import bundle  # noqa: E402
import data as D  # noqa: E402
from fit import PairModel, encode, macro_f1, split  # noqa: E402


def instances(sci: Path, offsets: Path, groups: set[str]):
    _, sentences = D.scifact_docs(sci, offsets)
    by_claim: dict[str, dict] = {}
    for row in csv.DictReader(open(sci / "claims" / "claims_train.csv", encoding="utf-8")):
        if D.group_of(row["claim"]) not in groups:
            continue
        rec = by_claim.setdefault(row["id"], {"claim": row["claim"], "ev": {}, "cited": re.findall(r"\d+", row["cited_doc_ids"])})
        if row["evidence_doc_id"]:
            e = rec["ev"].setdefault(row["evidence_doc_id"], {"label": row["evidence_label"], "s": set()})
            e["s"] |= {int(i) for i in re.findall(r"\d+", row["evidence_sentences"])}
    out = []
    for rec in by_claim.values():
        if rec["ev"]:
            for doc, e in rec["ev"].items():
                out.append((rec["claim"], [sentences[doc][i] for i in sorted(e["s"])], 0 if e["label"] == "SUPPORT" else 1))
        else:
            words = set(D.terms(rec["claim"]))
            for doc in rec["cited"]:
                sents = sentences.get(doc, [])
                best = sorted(range(len(sents)), key=lambda i: (-len(words & set(D.terms(sents[i]))), i))[:3]
                if best:
                    out.append((rec["claim"], [sents[i] for i in sorted(best)], 2))
    return out


@torch.no_grad()
def probs(model, tok, a: str, bs: list[str]) -> list[list[float]]:
    res = []
    for b in bs:
        ids, types = encode(tok, a, b, 256, 64)
        t = torch.tensor([ids])
        sl, _ = model(t, torch.tensor([types]), torch.ones_like(t))
        res.append(torch.softmax(sl, -1)[0].tolist())
    return res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundle", default="public/models/sift-verifier-v1")
    ap.add_argument("--base", default=".cache/models/all-MiniLM-L6-v2")
    ap.add_argument("--datasets", default="../shared/datasets")
    ap.add_argument("--offsets", default="eval/data/scifact-sentences.json")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    torch.set_num_threads(2)
    from transformers import BertTokenizerFast

    tok = BertTokenizerFast.from_pretrained(args.base)
    model = bundle.load_into(PairModel(args.base), Path(args.bundle))
    examples, _ = D.build(Path(args.datasets), Path(args.offsets), args.seed)
    _, held = split(examples, args.seed, 0.1)
    inst = instances(Path(args.datasets) / "scifact", Path(args.offsets), {e.group for e in held})
    gold, rules = [], {"sum_log": [], "joined": [], "max": []}
    for claim, sents, label in inst:
        ps = probs(model, tok, claim, sents)
        s = [sum(math.log(max(p[k], 1e-9)) for p in ps) for k in range(3)]
        rules["sum_log"].append(max(range(3), key=lambda k: s[k]))
        j = probs(model, tok, claim, [" ".join(sents)])[0]
        rules["joined"].append(max(range(3), key=lambda k: j[k]))
        m = [max(p[0] for p in ps), max(p[1] for p in ps)]
        rules["max"].append(2 if max(m) < 0.5 else (0 if m[0] >= m[1] else 1))
        gold.append(label)
    report = {"instances": len(gold), "by_label": [gold.count(k) for k in range(3)]}
    for name, pred in rules.items():
        report[name] = round(macro_f1(gold, pred, [0, 1, 2])[0], 4)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
