# Regenerates wasm/golden/minilm-wordpiece-ids.json: token ids of the real all-MiniLM-L6-v2
# tokenizer (../shared/models/all-MiniLM-L6-v2-tokenizer/tokenizer.json) computed by the Python
# `tokenizers` library (the Rust reference), without truncation, for the USE-lite fixture texts.
# Run on purpose only:
#   pip install --target .cache/py tokenizers && PYTHONPATH=.cache/py python3 tools/gen-wordpiece-reference.py
#   npx prettier --write wasm/golden/minilm-wordpiece-ids.json   (npm run lint checks it)
import json
import os

from tokenizers import Tokenizer

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
tok = Tokenizer.from_file(os.path.join(root, '../shared/models/all-MiniLM-L6-v2-tokenizer/tokenizer.json'))
tok.no_truncation()
tok.no_padding()
texts = [''] + json.load(open(os.path.join(root, 'wasm/golden/use-lite-tfjs.json')))['texts']
extra = [
    'İstanbul ΣΊΣΥΦΟΣ ǅ ß ﬁ',
    'ＡＢＣ１２３',
    'naïve café Ångström',
    'a\u0000b\ufffdc\u200bd\ufeffe',
    'x' * 120,
    'unbelievably-long_word_with_underscores_and-hyphens',
    '$5+3=8 <tag> a|b ~c ^d `e`',
    '中文字符和日本語のかな混在',
]
texts += extra
ids = [tok.encode(t).ids for t in texts]
import tokenizers
out = {'source': f'tokenizers {tokenizers.__version__} (Python), no truncation', 'texts': texts, 'ids': ids}
with open(os.path.join(root, 'wasm/golden/minilm-wordpiece-ids.json'), 'w') as f:
    json.dump(out, f, ensure_ascii=False)
print(f'wrote {len(texts)} texts')
