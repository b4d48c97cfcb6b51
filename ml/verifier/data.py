"""Training pairs for Sift's pair verifier, built from public claim-verification data only.

Sources (see ../shared/datasets/verification/README.md): CLIMATE-FEVER, COVID-Fact, FEVER entailment
pairs, SciFact claims_train with its rationale sentences, plus synthetic hard cases made from the
training text alone. SciFact dev/test claims and HealthVer are never read here.

Each example carries up to three labels (-1 = not labelled):
  stance   0 SUPPORT, 1 CONTRADICT, 2 NEI        (three-way sources)
  entail   1 supported, 0 not supported          (FEVER: not_entailment mixes refuted and NEI)
  relevant 1 the passage addresses the claim, 0 it does not
"""
from __future__ import annotations

import csv
import hashlib
import json
import math
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

SUPPORT, CONTRADICT, NEI = 0, 1, 2


@dataclass
class Example:
    a: str
    b: str
    source: str
    group: str  # the claim the pair belongs to: the unit of the train/validation split
    stance: int = -1
    entail: int = -1
    relevant: int = -1
    tags: list[str] = field(default_factory=list)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def group_of(text: str) -> str:
    return hashlib.sha1(text.strip().lower().encode()).hexdigest()[:12]


# ---------- sources ----------

def climate_fever(path: Path) -> list[Example]:
    out = []
    labels = {"SUPPORTS": SUPPORT, "REFUTES": CONTRADICT, "NOT_ENOUGH_INFO": NEI}
    for line in open(path, encoding="utf-8"):
        row = json.loads(line)
        g = group_of(row["claim"])
        for ev in row["evidences"]:
            lab = labels[ev["evidence_label"]]
            # a NEI sentence was retrieved for the claim: on topic, but its relevance is unknown
            rel = 1 if lab != NEI else -1
            out.append(Example(row["claim"], ev["evidence"], "climate-fever", g, stance=lab, relevant=rel))
    return out


def covidfact(path: Path) -> list[Example]:
    out = []
    for line in open(path, encoding="utf-8"):
        row = json.loads(line)
        ev = " ".join(s.strip() for s in row["evidence"])
        lab = SUPPORT if row["label"] == "SUPPORTED" else CONTRADICT
        # a counter-claim and its original share a group, so both land on the same side of the split
        out.append(Example(row["claim"], ev, "covidfact", group_of(ev), stance=lab, relevant=1))
    return out


def fever_rte(path: Path) -> list[Example]:
    out = []
    for line in open(path, encoding="utf-8"):
        row = json.loads(line)
        ent = 1 if row["label"] == "entailment" else 0
        out.append(
            Example(row["claim"], row["evidence"], "fever", group_of(row["claim"]), entail=ent,
                    relevant=1 if ent else -1)
        )
    return out


def scifact_docs(scifact: Path, offsets_path: Path) -> tuple[dict, dict]:
    docs = {}
    for line in open(scifact / "corpus.jsonl", encoding="utf-8"):
        d = json.loads(line)
        docs[d["_id"]] = d
    offsets = json.load(open(offsets_path))
    sentences = {}
    for doc_id, starts in offsets.items():
        text = docs[doc_id]["text"]
        ends = starts[1:] + [len(text)]
        sentences[doc_id] = [text[s:e].strip() for s, e in zip(starts, ends)]
    return docs, sentences


def scifact_train(scifact: Path, offsets_path: Path, rng: random.Random) -> list[Example]:
    """Claim + rationale sentence(s) -> SUPPORT/CONTRADICT; other sentences of a cited abstract -> NEI."""
    _, sentences = scifact_docs(scifact, offsets_path)
    out = []
    for row in csv.DictReader(open(scifact / "claims" / "claims_train.csv", encoding="utf-8")):
        claim, g = row["claim"], group_of(row["claim"])
        if row["evidence_doc_id"]:
            sents = sentences[row["evidence_doc_id"]]
            gold = [int(i) for i in re.findall(r"\d+", row["evidence_sentences"])]
            lab = SUPPORT if row["evidence_label"] == "SUPPORT" else CONTRADICT
            for i in gold:
                out.append(Example(claim, sents[i], "scifact", g, stance=lab, relevant=1))
            if len(gold) > 1:
                out.append(Example(claim, " ".join(sents[i] for i in gold), "scifact", g, stance=lab, relevant=1))
            others = [i for i in range(len(sents)) if i not in gold]
            for i in rng.sample(others, min(2, len(others))):
                out.append(Example(claim, sents[i], "scifact", g, stance=NEI))
        else:
            for doc in re.findall(r"\d+", row["cited_doc_ids"]):
                sents = sentences.get(doc, [])
                for i in rng.sample(range(len(sents)), min(2, len(sents))):
                    out.append(Example(claim, sents[i], "scifact", g, stance=NEI))
    return out


# ---------- lexical neighbours (for hard negatives) ----------

STOP = set(
    "a an the of in on to for and or is are was were be been by with as at from that this these those it its "
    "not no can may than which who whom whose what when where how why do does did has have had will would".split()
)


def terms(text: str) -> list[str]:
    return [t for t in re.findall(r"[a-z0-9]+", text.lower()) if t not in STOP and len(t) > 1]


class Bm25:
    def __init__(self, texts: list[str], k1: float = 0.9, b: float = 0.4):
        self.k1, self.b = k1, b
        self.docs = [terms(t) for t in texts]
        self.avg = sum(len(d) for d in self.docs) / max(1, len(self.docs))
        self.post: dict[str, list[tuple[int, int]]] = {}
        for i, d in enumerate(self.docs):
            counts: dict[str, int] = {}
            for t in d:
                counts[t] = counts.get(t, 0) + 1
            for t, c in counts.items():
                self.post.setdefault(t, []).append((i, c))
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self.post.items()}

    def top(self, query: str, k: int) -> list[int]:
        scores: dict[int, float] = {}
        for t in set(terms(query)):
            for i, c in self.post.get(t, []):
                norm = c * (self.k1 + 1) / (c + self.k1 * (1 - self.b + self.b * len(self.docs[i]) / self.avg))
                scores[i] = scores.get(i, 0.0) + self.idf[t] * norm
        return [i for i, _ in sorted(scores.items(), key=lambda x: (-x[1], x[0]))[:k]]


def scifact_relevance(scifact: Path, rng: random.Random) -> list[Example]:
    """Claim + a passage of a judged abstract -> relevant; of a top BM25 non-judged abstract -> not."""
    docs = [json.loads(l) for l in open(scifact / "corpus.jsonl", encoding="utf-8")]
    ids = [d["_id"] for d in docs]
    bm = Bm25([d["title"] + " " + d["text"] for d in docs])
    qrels: dict[str, set[str]] = {}
    for i, line in enumerate(open(scifact / "qrels" / "train.tsv", encoding="utf-8")):
        if i == 0:
            continue
        q, d, _ = line.rstrip("\n").split("\t")
        qrels.setdefault(q, set()).add(d)
    queries = {}
    for line in open(scifact / "queries.jsonl", encoding="utf-8"):
        q = json.loads(line)
        if q["_id"] in qrels:
            queries[q["_id"]] = q["text"]
    out = []
    for qid in sorted(queries, key=int):
        claim = queries[qid]
        g = group_of(claim)
        for d in sorted(qrels[qid]):
            doc = docs[ids.index(d)]
            out.append(Example(claim, passage(doc, rng), "scifact-rel", g, relevant=1))
        negs = [ids[i] for i in bm.top(claim, 8) if ids[i] not in qrels[qid]][:3]
        for d in negs:
            out.append(Example(claim, passage(docs[ids.index(d)], rng), "scifact-rel", g, relevant=0, tags=["hard"]))
    return out


def passage(doc: dict, rng: random.Random, size: int = 600) -> str:
    """A ~500-character window of an abstract with its title, as the app's chunks are."""
    text = doc["text"]
    if len(text) <= size:
        return f"{doc['title']}. {text}"
    start = rng.randrange(0, len(text) - size)
    start = text.rfind(" ", 0, start) + 1
    return f"{doc['title']}. {text[start:start + size]}"


# ---------- synthetic hard cases (from training text only) ----------

SWAPS = [
    ("increases", "decreases"), ("increase", "decrease"), ("increased", "decreased"), ("increasing", "decreasing"),
    ("higher", "lower"), ("more", "less"), ("greater", "smaller"), ("positive", "negative"),
    ("promotes", "inhibits"), ("enhances", "reduces"), ("activates", "suppresses"), ("upregulates", "downregulates"),
    ("up-regulates", "down-regulates"), ("rises", "falls"), ("warming", "cooling"), ("before", "after"),
    ("above", "below"), ("larger", "smaller"), ("faster", "slower"), ("better", "worse"), ("improves", "worsens"),
    ("gain", "loss"), ("benefit", "harm"), ("safe", "unsafe"), ("effective", "ineffective"), ("always", "never"),
    ("success", "failure"), ("strengthens", "weakens"), ("accelerates", "slows"),
]
SWAP = {**{a: b for a, b in SWAPS}, **{b: a for a, b in SWAPS}}
AUX = re.compile(r"\b(is|are|was|were|can|could|will|would|should|may|might|has|have|had|does|do|did)\b(?! not)", re.I)
NUM = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.])")


def swap_direction(claim: str) -> str | None:
    words = re.split(r"(\W+)", claim)
    for i, w in enumerate(words):
        if w.lower() in SWAP:
            r = SWAP[w.lower()]
            words[i] = r.capitalize() if w[:1].isupper() else r
            return "".join(words)
    return None


def negate(claim: str) -> str | None:
    m = AUX.search(claim)
    if not m:
        return None
    return claim[: m.end()] + " not" + claim[m.end():]


def change_number(claim: str, rng: random.Random) -> str | None:
    m = NUM.search(claim)
    if not m:
        return None
    v = float(m.group(1))
    new = v * rng.choice([2, 3, 10]) + rng.choice([1, 3, 7])
    text = str(int(new)) if "." not in m.group(1) else f"{new:.1f}"
    return claim[: m.start(1)] + text + claim[m.end(1):]


def synthetic(examples: list[Example], rng: random.Random) -> list[Example]:
    """Each supported pair yields at most one contradicting twin: direction swapped, negated or a number changed."""
    out = []
    for ex in examples:
        if not (ex.stance == SUPPORT or ex.entail == 1):
            continue
        if rng.random() > 0.5:
            continue
        order = [swap_direction, negate, lambda c: change_number(c, rng)]
        rng.shuffle(order)
        for make in order:
            twisted = make(ex.a)
            if twisted and twisted != ex.a:
                out.append(Example(twisted, ex.b, "synthetic", ex.group, stance=CONTRADICT, relevant=1, tags=["synthetic"]))
                break
    return out


def random_nei(examples: list[Example], rng: random.Random, n: int) -> list[Example]:
    """A claim beside another claim's evidence: NEI and not relevant."""
    pool = [e for e in examples if e.relevant == 1]
    out = []
    for _ in range(n):
        x, y = rng.sample(pool, 2)
        if x.group == y.group:
            continue
        out.append(Example(x.a, y.b, "random", x.group, stance=NEI, relevant=0, tags=["random"]))
    return out


def build(datasets: Path, offsets_path: Path, seed: int) -> tuple[list[Example], dict]:
    rng = random.Random(seed)
    ver = datasets / "verification"
    sci = datasets / "scifact"
    files = {
        "climate-fever": ver / "climate-fever" / "climate-fever.jsonl",
        "covidfact": ver / "covidfact" / "COVIDFACT_dataset.jsonl",
        "fever-rte-dev": ver / "fever-rte-dev" / "pairs.jsonl",
        "scifact/claims_train.csv": sci / "claims" / "claims_train.csv",
        "scifact/corpus.jsonl": sci / "corpus.jsonl",
        "scifact/queries.jsonl": sci / "queries.jsonl",
        "scifact/qrels/train.tsv": sci / "qrels" / "train.tsv",
        "scifact-sentences.json": offsets_path,
    }
    hashes = {k: sha256(p) for k, p in files.items()}
    base = (
        climate_fever(files["climate-fever"]) + covidfact(files["covidfact"]) + fever_rte(files["fever-rte-dev"])
        + scifact_train(sci, offsets_path, rng) + scifact_relevance(sci, rng)
    )
    extra = synthetic(base, rng) + random_nei(base, rng, 6000)
    return base + extra, hashes
