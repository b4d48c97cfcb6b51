"""Question-to-sentence pairs made from Debian's man pages (section 1), for the verifier experiments:
"What does grep do?" against the first sentence of grep's DESCRIPTION, and "What does the -F option
of grep do?" against that option's first sentence, each beside sentences of the same page that do
not answer it (other options: hard negatives). Pages of the tools the answers dev and check sets
are about (gnuplot, gri, camlidl, libtasn1, shared-mime-info) and R's are never read."""
import gzip
import random
import re
import subprocess
from pathlib import Path

EXCLUDE = re.compile(r"^(gnuplot|gri|camlidl|asn1|libtasn1|update-mime-database|r|rscript|rterm)(\.|$)", re.I)
SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def render(path: Path) -> str:
    raw = gzip.open(path).read() if path.suffix == ".gz" else path.read_bytes()
    out = subprocess.run(
        ["groff", "-man", "-Tutf8", "-rLL=400n", "-P", "-cbou"], input=raw, capture_output=True, timeout=20
    )
    return out.stdout.decode("utf-8", "replace")


def first_sentence(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return SENT.split(text)[0] if text else ""


def parse(page: str) -> tuple[str, list[str], list[tuple[str, str]]]:
    """The page's name, its DESCRIPTION paragraphs and its (option tag, description) pairs."""
    name, section, desc, opts = "", None, [], []
    lines = page.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if re.match(r"^[A-Z][A-Z ]+$", line.strip()) and not line.startswith(" "):
            section = line.strip()
            i += 1
            continue
        body = line.strip()
        if section == "NAME" and body and not name:
            name = re.split(r"\s+[-\u2010\u2013\u2014]\s+", body)[0].split(",")[0].strip()
        elif section == "DESCRIPTION" and line.startswith("       ") and not line.startswith("        ") and body:
            desc.append(re.sub(r"\s+", " ", body))
        if line.startswith("       -") and not line.startswith("        "):
            tag = body
            text = []
            j = i + 1
            while j < len(lines) and lines[j].startswith("              ") and lines[j].strip():
                text.append(lines[j].strip())
                j += 1
            if not text and "  " in tag:  # a short tag with its text on the same line
                tag, rest = tag.split("  ", 1)
                text = [rest]
            elif not text:
                parts = tag.split(" ", 1)
                if len(parts) == 2 and not parts[1].startswith("-"):
                    tag, text = parts[0], [parts[1]]
            opt = re.split(r"[ ,=\[]", tag)[0]
            if text and opt.startswith("-") and len(opt) > 1:
                opts.append((opt, " ".join(text)))
            i = j
            continue
        i += 1
    return name, desc, opts


def manpage_examples(Example, rng: random.Random, pages: int = 1500, negatives: int = 3) -> list:
    files = sorted(p for p in Path("/usr/share/man/man1").iterdir() if not EXCLUDE.match(p.name))
    cloud = [p for p in files if p.name.startswith("gcloud")]  # 16,000 pages of one tool: a few
    rest = [p for p in files if not p.name.startswith("gcloud")]
    chosen = rng.sample(rest, min(pages, len(rest))) + rng.sample(cloud, min(pages // 4, len(cloud)))
    out = []
    for path in chosen:
        try:
            name, desc, opts = parse(render(path))
        except (subprocess.TimeoutExpired, OSError):
            continue
        if not name:
            continue
        pool = [first_sentence(t) for _, t in opts] + [s for p in desc for s in SENT.split(p)]
        pool = [s for s in pool if len(s.split()) >= 4]
        g = "man:" + path.name
        lead = first_sentence(" ".join(desc[:1])) if desc else ""
        if len(lead.split()) >= 4 and name.lower() in lead.lower():
            q = rng.choice([f"What does {name} do?", f"What is {name} used for?", f"What is {name}?"])
            out.append(Example(q, lead, "man", g, relevant=1))
            others = [s for s in pool if s != lead]
            for s in rng.sample(others, min(negatives, len(others))):
                out.append(Example(q, s, "man", g, relevant=0))
        firsts = [(o, first_sentence(t)) for o, t in opts if len(first_sentence(t).split()) >= 4]
        for o, s in rng.sample(firsts, min(4, len(firsts))):
            q = rng.choice(
                [f"What does the {o} option of {name} do?", f"What does {name} {o} do?", f"What is {o} for in {name}?"]
            )
            gq = f"{g}:{o}"
            out.append(Example(q, s, "man", gq, relevant=1))
            others = [t for oo, t in firsts if oo != o and t != s] + ([lead] if lead else [])
            for t in rng.sample(others, min(negatives, len(others))):
                out.append(Example(q, t, "man", gq, relevant=0, tags=["hard"]))
    return out


if __name__ == "__main__":
    import sys
    from dataclasses import dataclass, field

    @dataclass
    class Example:
        a: str
        b: str
        source: str
        group: str
        stance: int = -1
        entail: int = -1
        relevant: int = -1
        tags: list = field(default_factory=list)

    ex = manpage_examples(Example, random.Random(1), pages=int(sys.argv[1]) if len(sys.argv) > 1 else 20)
    for e in ex[:30]:
        print(e.relevant, "|", e.a, "|", e.b[:120])
    print(len(ex), "pairs", sum(e.relevant for e in ex), "positive")
