"""A development bundle of the pair verifier in the exact shipped format (ml/verifier/FORMAT.md,
/work VERIFIER-CONTRACT): all-MiniLM-L6-v2's encoder with seeded random heads, int8 per row.

It lets the runtime, its reference check, its benchmark and its delivery be built and tested before
the fitted weights exist. It is NOT a verifier (its heads are untrained): never ship it.

Usage: python3 ml/verifier/make-bundle.py --init-only OUT_DIR [--base DIR] [--seed N] [--layers N]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import shutil
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BASE = ROOT / ".cache/models/all-MiniLM-L6-v2"
STANCE = ["SUPPORT", "CONTRADICT", "NEI"]


def quantise_rows(w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Symmetric int8 per row: value[r][c] = q[r][c] * scale[r] (f32)."""
    w = w.detach().float()
    scale = (w.abs().amax(dim=1).clamp_min(1e-12) / 127.0).float()
    q = torch.round(w / scale[:, None]).clamp(-127, 127).to(torch.int8)
    return q.contiguous(), scale.contiguous()


def encoder_tensors(base: Path, layers: int) -> dict[str, torch.Tensor]:
    src = load_file(str(base / "model.safetensors"))
    out: dict[str, torch.Tensor] = {}
    for name, t in src.items():
        name = name[len("bert."):] if name.startswith("bert.") else name
        if name.endswith("position_ids") or name.startswith("pooler."):
            continue
        if name.startswith("encoder.layer.") and int(name.split(".")[2]) >= layers:
            continue
        if t.dim() == 2:
            out[name], out[name + ".scale"] = quantise_rows(t)
        else:
            out[name] = t.detach().float().contiguous()
    return out


def head_tensors(hidden: int, seed: int) -> dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    # Large enough that softmax and sigmoid move away from uniform on real text.
    std = 0.5
    return {
        "heads.stance.weight": (torch.randn(3, hidden, generator=g) * std).float(),
        "heads.stance.bias": (torch.randn(3, generator=g) * 0.1).float(),
        "heads.relevance.weight": (torch.randn(1, hidden, generator=g) * std).float(),
        "heads.relevance.bias": (torch.randn(1, generator=g) * 0.1).float(),
    }


def config_for(base: Path, layers: int) -> dict:
    c = json.loads((base / "config.json").read_text())
    return {
        "format": "sift-verifier",
        "version": 1,
        "base": "all-MiniLM-L6-v2",
        "hidden_size": c["hidden_size"],
        "num_hidden_layers": layers,
        "num_attention_heads": c["num_attention_heads"],
        "intermediate_size": c["intermediate_size"],
        "vocab_size": c["vocab_size"],
        "max_position_embeddings": c["max_position_embeddings"],
        "type_vocab_size": c["type_vocab_size"],
        "layer_norm_eps": c["layer_norm_eps"],
        "hidden_act": "gelu",
        "do_lower_case": True,
        "max_length": 256,
        "max_length_a": 64,
        "heads": {"stance": STANCE, "relevance": ["relevant"]},
    }


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--init-only", action="store_true", required=True,
                    help="random seeded heads on the base encoder (the only mode: fitting is ml/verifier's fit)")
    ap.add_argument("--base", type=Path, default=DEFAULT_BASE)
    ap.add_argument("--seed", type=int, default=20261204)
    ap.add_argument("--layers", type=int, default=None)
    args = ap.parse_args()
    base_config = json.loads((args.base / "config.json").read_text())
    layers = args.layers or base_config["num_hidden_layers"]
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    tensors = encoder_tensors(args.base, layers)
    tensors.update(head_tensors(base_config["hidden_size"], args.seed))
    save_file(dict(sorted(tensors.items())), str(out / "model.safetensors"),
              metadata={"format": "sift-verifier"})
    (out / "config.json").write_text(json.dumps(config_for(args.base, layers), indent=2) + "\n")
    shutil.copyfile(args.base / "vocab.txt", out / "vocab.txt")
    files = {p.name: {"sha256": sha256(p), "bytes": p.stat().st_size}
             for p in sorted(out.iterdir()) if p.is_file() and p.name != "manifest.json"}
    manifest = {"format": "sift-verifier", "version": 1, "files": files,
                "producer": "ml/verifier/make-bundle.py --init-only",
                "note": "untrained heads: a development bundle, not a verifier",
                "seed": args.seed, "base": str(args.base.name), "layers": layers}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {out} ({sum(f['bytes'] for f in files.values()) / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
