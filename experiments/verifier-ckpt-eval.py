"""Held-out figures of a pair-verifier training checkpoint (float weights), as ml/verifier/fit.py
computes them at the end of a fit: the same examples, split and seed. For reading a long fit's
progress before it ends. `python3 experiments/verifier-ckpt-eval.py CKPT [--threads 1]`."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ml" / "verifier"))
import data as D  # noqa: E402
import fit  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ckpt")
    ap.add_argument("--base", default=".cache/models/all-MiniLM-L6-v2")
    ap.add_argument("--datasets", default="../shared/datasets")
    ap.add_argument("--offsets", default="eval/data/scifact-sentences.json")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--held-out", type=float, default=0.1)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--max-a", type=int, default=64)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    from transformers import BertTokenizerFast

    tok = BertTokenizerFast.from_pretrained(args.base)
    examples, _ = D.build(Path(args.datasets), Path(args.offsets), args.seed)
    _, held = fit.split(examples, args.seed, args.held_out)
    rows = fit.to_rows(tok, held, args.max_len, args.max_a)
    model = fit.PairModel(args.base)
    model.load_state_dict(torch.load(args.ckpt, map_location="cpu"))
    model.eval()
    probs, rels = fit.predict(model, rows)
    print(json.dumps(fit.figures(held, probs, rels), indent=1))


if __name__ == "__main__":
    main()
