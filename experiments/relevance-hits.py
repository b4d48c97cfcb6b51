"""How well a relevance reading ranks the answering sentence, over `experiments/answers-relevance.ts`
dumps (or their rescored copies from `verifier-qa-relevance.py`): for each answerable question with
answer phrases and a dumped strip holding one, the rank by `rel` of the first such strip (hit@1,
hit@3, MRR), and the best `rel` of each unanswerable question against the lowest best of the
answerable ones (how cleanly "not in the library" can be cut).

  python3 experiments/relevance-hits.py DUMP.jsonl [MORE.jsonl ...]
"""
import json
import sys


def holds(strip: dict, phrases: list[str]) -> bool:
    return any(p.lower() in strip["text"].lower() for p in phrases)


def main() -> None:
    for path in sys.argv[1:]:
        recs = [json.loads(line) for line in open(path)]
        ranks = []
        for r in recs:
            if not r.get("answerable") or not r.get("phrases"):
                continue
            strips = r["strips"]
            if not any(holds(s, r["phrases"]) for s in strips):
                continue
            order = sorted(range(len(strips)), key=lambda i: -strips[i]["rel"])
            ranks.append(next(k for k, i in enumerate(order) if holds(strips[i], r["phrases"])) + 1)
        n = len(ranks)
        best = lambda r: max(s["rel"] for s in r["strips"])  # noqa: E731
        unanswerable = sorted(round(best(r), 3) for r in recs if not r.get("answerable"))
        answerable_low = min(best(r) for r in recs if r.get("answerable"))
        print(
            f"{path}: {n} questions with a phrase strip; hit@1 {sum(k == 1 for k in ranks) / n:.3f} "
            f"hit@3 {sum(k <= 3 for k in ranks) / n:.3f} MRR {sum(1 / k for k in ranks) / n:.3f}; "
            f"best rel of unanswerable {unanswerable}; lowest best of answerable {answerable_low:.3f}"
        )


if __name__ == "__main__":
    main()
