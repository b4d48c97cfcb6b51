"""Experiment: does question-to-sentence data lift the pair verifier's relevance head where answers
need it (which sentence of an on-topic passage answers the question)? Fine-tunes the shipped v1
bundle (dequantised) on SQuAD sentence selection (the sentence holding the answer span against
the paragraph's other sentences, and against the sentence holding a v2 "plausible answer" of an
unanswerable question), mixed with v1's own training examples so stance and claim relevance are
replayed, then rescores an `experiments/answers-relevance.ts` dump with the new relevance.
`--wikiqa FILE` adds WikiQA answer-sentence selection (Microsoft Research's WikiQA-train.tsv: a
question's answering sentences against the other sentences of its Wikipedia summary). Nothing here
is shipped; SQuAD (CC BY-SA 4.0) subsets and WikiQA (Microsoft Research Data License, research
use) are read from files given on the command line.

  python3 experiments/verifier-qa-relevance.py --squad A.json B.json --steps 400 \
      --dump /tmp/rel-dev.jsonl --out .cache/verifier-qa/relevance.ckpt --rescored /tmp/rel-dev-qa.jsonl
  python3 experiments/verifier-qa-relevance.py --wikiqa .cache/wikiqa/WikiQA-train.tsv --steps 400 \
      --dump /tmp/rel-dev.jsonl --out /tmp/wikiqa/rel.ckpt --rescored /tmp/rel-dev-wikiqa.jsonl
  python3 experiments/relevance-hits.py /tmp/rel-dev.jsonl /tmp/rel-dev-wikiqa.jsonl
"""
import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ml" / "verifier"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import bundle  # noqa: E402
import data as D  # noqa: E402
from manpage_pairs import manpage_examples  # noqa: E402
from fit import PairModel, batches, collate, encode, loss_of, predict, to_rows  # noqa: E402

SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def sentences(text: str) -> list[tuple[int, int]]:
    out, start = [], 0
    for m in SENT.finditer(text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    return [(a, b) for a, b in out if b - a > 15]


def squad_examples(paths: list[str], rng: random.Random, negatives: int = 3) -> list[D.Example]:
    seen, out = set(), []
    for p in paths:
        for art in json.load(open(p))["data"]:
            for par in art["paragraphs"]:
                ctx = par["context"]
                spans = sentences(ctx)
                at = lambda o: next((i for i, (a, b) in enumerate(spans) if a <= o < b), None)  # noqa: E731
                for q in par["qas"]:
                    if q["id"] in seen:
                        continue
                    seen.add(q["id"])
                    g = "squad:" + q["id"]
                    if q.get("is_impossible"):
                        for a in q.get("plausible_answers", [])[:1]:
                            i = at(a["answer_start"])
                            if i is not None:
                                s = ctx[spans[i][0] : spans[i][1]]
                                out.append(D.Example(q["question"], s, "squad", g, relevant=0, tags=["hard"]))
                        continue
                    pos = {at(a["answer_start"]) for a in q["answers"]} - {None}
                    if not pos:
                        continue
                    for i in sorted(pos):
                        out.append(D.Example(q["question"], ctx[spans[i][0] : spans[i][1]], "squad", g, relevant=1))
                    others = [i for i in range(len(spans)) if i not in pos]
                    for i in rng.sample(others, min(negatives, len(others))):
                        out.append(D.Example(q["question"], ctx[spans[i][0] : spans[i][1]], "squad", g, relevant=0))
    return out


def wikiqa_examples(path: str, rng: random.Random, negatives: int = 3) -> list[D.Example]:
    """WikiQA answer-sentence selection (TSV: Question, Sentence, Label): a question's answering
    sentences against other sentences of the same Wikipedia summary (hard: on topic, no answer);
    a question none of whose sentences answers gives one such sentence as a negative."""
    import csv

    by_q: dict[str, list[tuple[str, int]]] = {}
    for r in csv.DictReader(open(path, newline=""), delimiter="\t", quoting=csv.QUOTE_MINIMAL):
        by_q.setdefault(r["Question"], []).append((r["Sentence"], int(r["Label"])))
    out = []
    for q in sorted(by_q):
        rows = by_q[q]
        g = "wikiqa:" + q
        pos = [s for s, l in rows if l == 1]
        neg = [s for s, l in rows if l == 0]
        for s in pos:
            out.append(D.Example(q, s, "wikiqa", g, relevant=1))
        for s in rng.sample(neg, min(negatives if pos else 1, len(neg))):
            out.append(D.Example(q, s, "wikiqa", g, relevant=0, tags=["hard"]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--squad", nargs="*", default=[])
    ap.add_argument("--wikiqa", default="", help="WikiQA-train.tsv (answer-sentence selection)")
    ap.add_argument("--man", type=int, default=0, help="man pages to make question pairs from")
    ap.add_argument("--bundle", default="public/models/sift-verifier-v1")
    ap.add_argument("--base", default=".cache/models/all-MiniLM-L6-v2")
    ap.add_argument("--datasets", default="../shared/datasets")
    ap.add_argument("--offsets", default="eval/data/scifact-sentences.json")
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--lr", type=float, default=2e-5)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--share", type=float, default=0.5, help="share of each batch from SQuAD")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default=".cache/verifier-qa/relevance.ckpt")
    ap.add_argument("--dump", nargs="*", default=[])
    ap.add_argument("--rescored", nargs="*", default=[])
    args = ap.parse_args()
    t0 = time.time()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)
    from transformers import BertTokenizerFast

    tok = BertTokenizerFast.from_pretrained(args.base)
    model = bundle.load_into(PairModel(args.base), Path(args.bundle))
    if args.steps > 0:
        qa = (
            squad_examples(args.squad, rng)
            + (manpage_examples(D.Example, rng, args.man) if args.man else [])
            + (wikiqa_examples(args.wikiqa, rng) if args.wikiqa else [])
        )
        groups = sorted({e.group for e in qa})
        held = set(rng.sample(groups, len(groups) // 10))
        qa_train = [e for e in qa if e.group not in held]
        qa_held = [e for e in qa if e.group in held]
        base, _ = D.build(Path(args.datasets), Path(args.offsets), args.seed)
        print(f"question pairs {len(qa)} ({len(groups)} questions; held out {len(qa_held)}), replay {len(base)}", flush=True)
        rows_qa = to_rows(tok, qa_train, 128, 64)
        rows_base = to_rows(tok, base, 128, 64)
        held_rows = to_rows(tok, qa_held, 128, 64)
        _, r0 = predict(model, held_rows)
        print("held-out squad AUROC before", auroc(r0, [e.relevant for e in qa_held]), flush=True)
        counts = [sum(1 for e in base if e.stance == c) for c in range(3)]
        weights = torch.tensor([sum(counts) / (3 * c) for c in counts], dtype=torch.float)
        opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
        nq = int(args.batch * args.share)
        model.train()
        seen = 0.0
        for step in range(1, args.steps + 1):
            rows = [rows_qa[i] for i in rng.sample(range(len(rows_qa)), nq)] + [
                rows_base[i] for i in rng.sample(range(len(rows_base)), args.batch - nq)
            ]
            ids, types, mask, lab = collate(rows, list(range(len(rows))))
            sl, rl = model(ids, types, mask)
            loss = loss_of(sl, rl, lab, weights)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            lr = args.lr * min(1.0, step / 20) * (1 - step / (args.steps + 1))
            for g in opt.param_groups:
                g["lr"] = lr
            opt.step()
            opt.zero_grad()
            seen = 0.95 * seen + 0.05 * loss.item() if step > 1 else loss.item()
            if step % 25 == 0:
                print(f"step {step}/{args.steps} loss {seen:.4f} {(time.time() - t0) / 60:.1f} min", flush=True)
        _, r1 = predict(model, held_rows)
        print("held-out squad AUROC after", auroc(r1, [e.relevant for e in qa_held]), flush=True)
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        torch.save(model.state_dict(), args.out)
    for dump, out in zip(args.dump, args.rescored):
        recs = [json.loads(l) for l in open(dump)]
        pairs = [(r["question"], s["text"]) for r in recs for s in r["strips"]]
        rows = [(*encode(tok, a, b, 128, 64), (-1, -1, -1)) for a, b in pairs]
        _, rels = predict(model, rows)
        k = 0
        with open(out, "w") as f:
            for r in recs:
                for s in r["strips"]:
                    s["rel_v1"], s["rel"] = s["rel"], rels[k]
                    k += 1
                f.write(json.dumps(r) + "\n")
        print(f"rescored {dump} -> {out} ({k} pairs)", flush=True)
    print(f"done in {(time.time() - t0) / 60:.1f} min", flush=True)


def auroc(scores, labels):
    pos = [s for s, l in zip(scores, labels) if l == 1]
    neg = [s for s, l in zip(scores, labels) if l == 0]
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return round(wins / max(1, len(pos) * len(neg)), 4)


if __name__ == "__main__":
    main()
