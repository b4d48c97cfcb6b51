#!/usr/bin/env python3
"""Writes eval/data/scifact-sentences.json: for every abstract cited by a SciFact claim
(claims_train.csv and claims_validation.csv), the start offsets of its ORIGINAL sentences in the
BEIR `text` (which joins them with one space, so the boundaries are otherwise lost). The claims'
`evidence_sentences` index these sentences; `--task claims` needs them to know which text is gold.

Source: `corpus_train.csv` (columns doc_id, title, abstract = numpy-printed list of sentences)
inside `data/scifact.zip` of sumithra-p-v/claimverifier (blob f7dc63ef6833a230ad499aa7ec404affa85e4121),
the same file the dataset's SOURCE.md rebuilt corpus.jsonl from. Checked here: joining the
sentences gives corpus.jsonl's text byte for byte for every document.

usage: python3 eval/scifact-sentences.py <scifact.zip> <BEIR scifact folder>
"""
import ast, csv, io, json, re, sys, tokenize, zipfile

zip_path, beir = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(zip_path) as z:
    rows = list(csv.DictReader(io.TextIOWrapper(z.open("corpus_train.csv"), "utf-8")))
sentences = {}
for row in rows:
    toks = tokenize.generate_tokens(io.StringIO(row["abstract"]).readline)
    sentences[row["doc_id"]] = [ast.literal_eval(t.string) for t in toks if t.type == tokenize.STRING]
texts = {}
with open(f"{beir}/corpus.jsonl") as f:
    for line in f:
        d = json.loads(line)
        texts[d["_id"]] = d["text"]
cited = set()
for name in ("claims_train", "claims_validation"):
    with open(f"{beir}/claims/{name}.csv") as f:
        for r in csv.DictReader(f):
            cited |= set(re.findall(r"\d+", r["cited_doc_ids"]))
            if r["evidence_doc_id"]:
                cited.add(r["evidence_doc_id"])
out = {}
for doc in sorted(cited, key=int):
    parts = [s.strip() for s in sentences[doc]]
    assert " ".join(parts) == texts[doc], doc
    starts, pos = [], 0
    for p in parts:
        starts.append(pos)
        pos += len(p.encode("utf-16-le")) // 2 + 1  # JavaScript string offsets (UTF-16 units)
    out[doc] = starts
with open("eval/data/scifact-sentences.json", "w") as f:
    json.dump(out, f, separators=(",", ":"))
    f.write("\n")
print(f"{len(out)} abstracts, {sum(len(v) for v in out.values())} sentences")
