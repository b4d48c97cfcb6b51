"""PyTorch reference of the pair verifier on a bundle's own weights (dequantised exactly as the
runtime reads them: q * scale in f32), for the runtime's self-test.

Writes wasm/golden/verifier-reference.json: the fixed pairs below, each with the reference's token
ids, token types, truncation flag, stance logits and relevance logit, and the SHA-256 of the bundle's
model.safetensors they belong to. workers/verifier/reference.test.ts compares the canonical WASM
runtime with it (max |logit diff| <= its stated tolerance, same stance argmax).

Regenerate after a new bundle (with the runtime's hashes): npm run golden:verifier
Usage: python3 ml/verifier/reference.py [--bundle public/models/sift-verifier-v1] [--out FILE]
"""
from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import torch
from safetensors.torch import load_file
from tokenizers import BertWordPieceTokenizer
from transformers import BertConfig, BertModel

ROOT = Path(__file__).resolve().parents[2]
LONG = (
    "Sea level rise is driven by thermal expansion of warming ocean water and by melting land ice. "
    "Tide gauges and satellite altimetry agree on an acceleration since the 1990s. "
)

# Fixed pairs: ordinary claims and evidence, questions and passages, and the bad inputs the
# runtime must survive (empty text, non-English scripts, a claim longer than max_length_a, a
# passage longer than the window).
PAIRS: list[tuple[str, str]] = [
    ("Vitamin C prevents the common cold.", "Regular vitamin C intake did not reduce the incidence of colds in the general population."),
    ("Vitamin C prevents the common cold.", "Supplementation shortened the duration of colds slightly."),
    ("Global temperatures have risen since 1900.", "The global mean surface temperature increased by about 1.1 °C between 1900 and 2020."),
    ("Global temperatures have risen since 1900.", "Arctic sea ice extent has fallen in every decade since satellite records began."),
    ("The Great Wall of China is visible from the Moon.", "Astronauts report that no human-made structure can be seen with the naked eye from the Moon."),
    ("Smoking causes lung cancer.", "Cohort studies found a strong dose-response relation between cigarettes smoked and lung cancer."),
    ("Smoking causes lung cancer.", "The museum opens at nine on weekdays."),
    ("R indexes vectors starting at 1.", "In R, the first element of a vector x is x[1]."),
    ("R indexes vectors starting at 1.", "contour() draws contour lines of a matrix of values on a grid."),
    ("How do I fit a logistic regression?", "Use glm() with family = binomial to fit a logistic regression model."),
    ("What is the boiling point of water at sea level?", "At standard atmospheric pressure water boils at 100 degrees Celsius."),
    ("What is the boiling point of water at sea level?", "Penguins live almost exclusively in the Southern Hemisphere."),
    ("COVID-19 vaccines contain microchips.", "The vaccines contain mRNA, lipids, salts and sugar; they contain no electronic devices."),
    ("Masks reduce transmission of respiratory viruses.", "Community mask wearing was associated with fewer infections in a randomized trial in Bangladesh."),
    ("", "An empty claim must not crash the runtime."),
    ("An empty passage must not crash the runtime.", ""),
    ("地球温暖化は人間活動によって引き起こされている。", "Человеческая деятельность является основной причиной глобального потепления."),
    ("Café crème brûlée naïve Ångström ΣΊΣΥΦΟΣ", "Ünïcödé àccents are stripped; ΣΊΣΥΦΟΣ lowercases per character."),
    (" ".join(["The claim keeps going"] * 30), "A short sentence."),
    ("Sea level rise is accelerating.", LONG * 20),
]


def bundle_model(folder: Path):
    cfg = json.loads((folder / "config.json").read_text())
    if cfg.get("format") != "sift-verifier":
        raise SystemExit(f"{folder}/config.json is not a sift-verifier config")
    bert_cfg = BertConfig(
        vocab_size=cfg["vocab_size"], hidden_size=cfg["hidden_size"],
        num_hidden_layers=cfg["num_hidden_layers"], num_attention_heads=cfg["num_attention_heads"],
        intermediate_size=cfg["intermediate_size"], max_position_embeddings=cfg["max_position_embeddings"],
        type_vocab_size=cfg["type_vocab_size"], layer_norm_eps=cfg["layer_norm_eps"], hidden_act="gelu",
        attn_implementation="eager",
    )
    bert = BertModel(bert_cfg, add_pooling_layer=False)
    t = load_file(str(folder / "model.safetensors"))
    state = {}
    for name, v in t.items():
        # The heads read the [CLS] row directly: a pooler in the file (if the fit kept one) is unused.
        if name.endswith(".scale") or name.startswith("heads.") or name.startswith("pooler."):
            continue
        if v.dtype == torch.int8:
            state[name] = v.float() * t[name + ".scale"].float()[:, None]
        else:
            state[name] = v.float()
    result = bert.load_state_dict(state, strict=False)
    missing = [k for k in result.missing_keys if not k.endswith("position_ids")]
    if missing or result.unexpected_keys:
        raise SystemExit(f"bundle tensors do not match BertModel: missing {missing}, unexpected {result.unexpected_keys}")
    bert.eval()
    heads = {k: t[k].float() for k in ("heads.stance.weight", "heads.stance.bias", "heads.relevance.weight", "heads.relevance.bias")}
    return cfg, bert, heads


def encode_pair(tok, cfg: dict, a: str, b: str):
    ida = tok.encode(a, add_special_tokens=False).ids
    idb = tok.encode(b, add_special_tokens=False).ids
    cut_a = ida[: cfg["max_length_a"]]
    room = cfg["max_length"] - 3 - len(cut_a)
    cut_b = idb[: max(0, room)]
    truncated = len(cut_a) < len(ida) or len(cut_b) < len(idb)
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    ids = [cls, *cut_a, sep, *cut_b, sep]
    types = [0] * (len(cut_a) + 2) + [1] * (len(cut_b) + 1)
    return ids, types, truncated


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bundle", type=Path, default=ROOT / "public/models/sift-verifier-v1")
    ap.add_argument("--out", type=Path, default=ROOT / "wasm/golden/verifier-reference.json")
    args = ap.parse_args()
    torch.manual_seed(0)
    cfg, bert, heads = bundle_model(args.bundle)
    # Hugging Face `tokenizers` (Rust): the implementation workers/embed/wordpiece.ts follows.
    tok = BertWordPieceTokenizer(str(args.bundle / "vocab.txt"), lowercase=cfg["do_lower_case"],
                                 strip_accents=None, clean_text=True, handle_chinese_chars=True)
    rows = []
    with torch.no_grad():
        for a, b in PAIRS:
            ids, types, truncated = encode_pair(tok, cfg, a, b)
            out = bert(input_ids=torch.tensor([ids]), token_type_ids=torch.tensor([types]),
                       attention_mask=torch.ones(1, len(ids), dtype=torch.long))
            h = out.last_hidden_state[0, 0]
            stance = heads["heads.stance.weight"] @ h + heads["heads.stance.bias"]
            relevance = heads["heads.relevance.weight"] @ h + heads["heads.relevance.bias"]
            rows.append({"a": a, "b": b, "ids": ids, "typeIds": types, "truncated": truncated,
                         "stanceLogits": [float(x) for x in stance], "relevanceLogit": float(relevance[0])})
    weights = args.bundle / "model.safetensors"
    body = {
        "producer": "ml/verifier/reference.py (PyTorch BertModel, eager attention, f32, CPU)",
        "torch": torch.__version__,
        "bundleSha256": hashlib.sha256(weights.read_bytes()).hexdigest(),
        "maxLength": cfg["max_length"], "maxLengthA": cfg["max_length_a"],
        "pairs": rows,
    }
    args.out.write_text(json.dumps(body, ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {args.out}: {len(rows)} pairs")


if __name__ == "__main__":
    main()
