"""The verifier bundle on disk (ml/verifier/FORMAT.md): int8 matrices with per-row scales, F32 vectors and
heads, the BERT config and vocabulary, and a manifest with each file's SHA-256. Also loads a bundle back
into a PyTorch model with the dequantised weights (the reference the runtime is checked against)."""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

FORMAT_VERSION = 1


def quantise_rows(w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Symmetric int8 per row: value[r][c] = q[r][c] * scale[r]."""
    w = w.detach().float()
    scale = w.abs().amax(dim=1).clamp_min(1e-12) / 127.0
    q = torch.round(w / scale[:, None]).clamp(-127, 127).to(torch.int8)
    return q.contiguous(), scale.contiguous()


def tensors_of(model) -> dict[str, torch.Tensor]:
    out: dict[str, torch.Tensor] = {}
    for name, t in model.bert.state_dict().items():
        if name.endswith("position_ids"):
            continue
        if t.dim() == 2:
            q, s = quantise_rows(t)
            out[name], out[name + ".scale"] = q, s
        else:
            out[name] = t.detach().float().contiguous()
    out["heads.stance.weight"] = model.stance.weight.detach().float().contiguous()
    out["heads.stance.bias"] = model.stance.bias.detach().float().contiguous()
    out["heads.relevance.weight"] = model.relevance.weight.detach().float().contiguous()
    out["heads.relevance.bias"] = model.relevance.bias.detach().float().contiguous()
    return out


def config_of(model, args) -> dict:
    c = model.bert.config
    return {
        "format": "sift-verifier",
        "version": FORMAT_VERSION,
        "base": "all-MiniLM-L6-v2",
        "hidden_size": c.hidden_size,
        "num_hidden_layers": c.num_hidden_layers,
        "num_attention_heads": c.num_attention_heads,
        "intermediate_size": c.intermediate_size,
        "vocab_size": c.vocab_size,
        "max_position_embeddings": c.max_position_embeddings,
        "type_vocab_size": c.type_vocab_size,
        "layer_norm_eps": c.layer_norm_eps,
        "hidden_act": "gelu",
        "do_lower_case": True,
        "max_length": 256,
        "max_length_a": args.max_a,
        "heads": {"stance": ["SUPPORT", "CONTRADICT", "NEI"], "relevance": ["relevant"]},
    }


def write(model, base: str, out: Path, args) -> None:
    out.mkdir(parents=True, exist_ok=True)
    save_file(tensors_of(model), str(out / "model.safetensors"), metadata={"format": "sift-verifier"})
    (out / "config.json").write_text(json.dumps(config_of(model, args), indent=2) + "\n")
    shutil.copyfile(Path(base) / "vocab.txt", out / "vocab.txt")


def load_into(model, folder: Path):
    """A PairModel whose weights are the bundle's, dequantised (what the runtime computes with)."""
    t = load_file(str(folder / "model.safetensors"))
    state = {}
    for name, v in t.items():
        if name.endswith(".scale") or name.startswith("heads."):
            continue
        state[name] = v.float() * t[name + ".scale"][:, None] if v.dtype == torch.int8 else v
    missing = model.bert.load_state_dict(state, strict=False)
    assert not [m for m in missing.missing_keys if not m.endswith("position_ids")], missing
    model.stance.weight.data = t["heads.stance.weight"].clone()
    model.stance.bias.data = t["heads.stance.bias"].clone()
    model.relevance.weight.data = t["heads.relevance.weight"].clone()
    model.relevance.bias.data = t["heads.relevance.bias"].clone()
    model.eval()
    return model


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_manifest(out: Path, manifest: dict) -> None:
    files = {p.name: {"sha256": sha256(p), "bytes": p.stat().st_size} for p in sorted(out.iterdir())
             if p.name != "manifest.json" and p.is_file()}
    body = {"format": "sift-verifier", "version": FORMAT_VERSION, "files": files, **manifest}
    (out / "manifest.json").write_text(json.dumps(body, indent=2) + "\n")
