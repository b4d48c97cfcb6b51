# Regenerates wasm/golden/minilm-reference.{json,f32}: float32 sentence vectors of the real
# all-MiniLM-L6-v2 (.cache/models/all-MiniLM-L6-v2, from `node tools/copy-model.mjs
# --fetch-minilm`) computed by PyTorch + transformers exactly as sentence-transformers does for
# this model: fast tokenizer with truncation to max_seq_length (256, sentence_bert_config.json),
# BertModel, mean pooling over the attention mask, L2 normalisation. One text per forward pass,
# so no padding enters the sums. workers/embed/bert-reference.test.ts compares the canonical path.
# Run on purpose only (the venv lives in the ignored cache; torch 2.13.0 is the CPU wheel on disk):
#   python3 -m venv .cache/py/ref
#   .cache/py/ref/bin/pip install torch==2.13.0 && .cache/py/ref/bin/pip install transformers
#   .cache/py/ref/bin/pip install sentence-transformers   (optional cross-check; keeps torch 2.13.0)
#   HF_HUB_OFFLINE=1 .cache/py/ref/bin/python tools/gen-minilm-reference.py
#   npx prettier --write wasm/golden/minilm-reference.json   (npm run lint checks it)
import hashlib
import json
import os
import sys

os.environ.setdefault('HF_HUB_OFFLINE', '1')
os.environ.setdefault('TRANSFORMERS_OFFLINE', '1')

import numpy as np
import tokenizers
import torch
import transformers
from transformers import AutoModel, AutoTokenizer

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
model_dir = os.path.join(root, '.cache/models/all-MiniLM-L6-v2')
max_len = json.load(open(os.path.join(model_dir, 'sentence_bert_config.json')))['max_seq_length']
pool = json.load(open(os.path.join(model_dir, '1_Pooling/config.json')))
assert pool['pooling_mode_mean_tokens'] and not pool['pooling_mode_cls_token']

long_words = ' '.join(f'word{i} is number {i}.' for i in range(200))  # ~1000 tokens: truncated
texts = [
    '',
    ' ',
    'a',
    '.',
    '!!!',
    '...',
    'hello',
    'Hello, world!',
    'HELLO WORLD',
    'A man is eating food.',
    'A man is eating a piece of bread.',
    'The quick brown fox jumps over the lazy dog.',
    'the   quick\tbrown\nfox',
    '  leading and trailing spaces  ',
    "It's a dog's life, isn't it?",
    '"Quoted" text with (parentheses) and [brackets] and {braces}.',
    'e-mail: someone@example.com, url: https://example.org/path?q=1&r=2',
    '#hashtag @mention $100 50% 3.14159 1e-9',
    '1234567890',
    '0 1 2 3 4 5 6 7 8 9 10 11 12',
    'In 2023, 42% of 1,000 patients (n=1000) had p < 0.05.',
    'Scientific claims need evidence; 42% of 1,000 (n=1000).',
    '$5+3=8 <tag> a|b ~c ^d `e`',
    'naïve café Ångström',
    'İstanbul ΣΊΣΥΦΟΣ ǅ ß ﬁ',
    'ＡＢＣ１２３',
    'a\u0000b\ufffdc\u200bd\ufeffe',
    'unbelievably-long_word_with_underscores_and-hyphens',
    'x' * 120,
    'Привет, как дела? Это тест на русском языке.',
    'Γειά σου Κόσμε',
    'مرحبا بالعالم، هذا اختبار.',
    'שלום עולם',
    'नमस्ते दुनिया',
    'สวัสดีชาวโลก',
    '中文字符和日本語のかな混在',
    '한국어 문장입니다.',
    'Emoji: 😀🎉👍🏽 and 🇫🇷 flags',
    '🔥🔥🔥',
    'Mitochondria are the powerhouse of the cell.',
    'Vitamin D supplementation reduces the risk of fractures in elderly women.',
    'The BRCA1 gene mutation increases breast cancer risk by 45-65% by age 70.',
    'Aspirin (acetylsalicylic acid) inhibits COX-1 and COX-2 enzymes.',
    'How do I reset my password?',
    'Where is the nearest train station?',
    'def f(x): return x ** 2  # square',
    'SELECT * FROM docs WHERE id = 42;',
    'C:\\Users\\name\\Documents\\report.pdf',
    'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt '
    'ut labore et dolore magna aliqua.',
    'The committee met on 2024-03-15 at 14:30 UTC; minutes follow.',
    ' '.join(['token'] * 253),  # 253 word pieces + [CLS] + [SEP] = 255: just under the window
    ' '.join(['token'] * 254),  # exactly 256 with [CLS] and [SEP]
    ' '.join(['token'] * 255),  # one over: truncated
    long_words,
    'Private search over my own documents should never leave this device. ' * 12,
    'Sift indexes PDFs, notes and web pages locally, then answers questions with citations.',
]

tok = AutoTokenizer.from_pretrained(model_dir, local_files_only=True)
assert tok.is_fast
model = AutoModel.from_pretrained(model_dir, local_files_only=True, dtype=torch.float32)
model.eval()
torch.set_num_threads(1)

ids_out = []
vecs = np.zeros((len(texts), model.config.hidden_size), dtype=np.float32)
with torch.no_grad():
    for i, text in enumerate(texts):
        # sentence-transformers Transformer.tokenize: truncation='longest_first', max_length.
        enc = tok([text], padding=True, truncation='longest_first', max_length=max_len, return_tensors='pt')
        out = model(**enc).last_hidden_state  # [1, n, H]
        # sentence-transformers Pooling (mean): sum(emb * mask) / clamp(sum(mask), min=1e-9)
        mask = enc['attention_mask'].unsqueeze(-1).to(out.dtype)
        pooled = (out * mask).sum(1) / torch.clamp(mask.sum(1), min=1e-9)
        # sentence-transformers Normalize: torch.nn.functional.normalize(p=2, dim=1)
        vec = torch.nn.functional.normalize(pooled, p=2, dim=1)
        vecs[i] = vec[0].numpy()
        ids_out.append(enc['input_ids'][0].tolist())

# Cross-check with sentence-transformers itself when it is installed (it is optional: the
# generator does by hand what its Transformer -> Pooling -> Normalize modules do).
st_version = None
try:
    import sentence_transformers
    from sentence_transformers import SentenceTransformer
except ImportError:
    pass
else:
    st = SentenceTransformer(model_dir, device='cpu', local_files_only=True)
    assert st.max_seq_length == max_len
    st_vecs = np.stack([st.encode([t], convert_to_numpy=True)[0] for t in texts])
    diff = float(np.abs(st_vecs - vecs).max())
    assert diff < 1e-6, f'sentence-transformers differs by {diff}'
    st_version = sentence_transformers.__version__

sha = hashlib.sha256(open(os.path.join(model_dir, 'model.safetensors'), 'rb').read()).hexdigest()
meta = {
    'source': (
        f'torch {torch.__version__}, transformers {transformers.__version__}, '
        f'tokenizers {tokenizers.__version__}, numpy {np.__version__}, Python {sys.version.split()[0]}; '
        'mean pooling + L2 normalisation as sentence-transformers, float32, one text per pass'
        + (f'; equal to sentence-transformers {st_version}' if st_version else '')
    ),
    'model': 'all-MiniLM-L6-v2',
    'modelSha256': sha,
    'maxTokens': max_len,
    'dim': int(vecs.shape[1]),
    'vectors': 'minilm-reference.f32: float32 little-endian, texts.length x dim, row-major',
    'texts': texts,
    'ids': ids_out,
}
golden = os.path.join(root, 'wasm/golden')
with open(os.path.join(golden, 'minilm-reference.json'), 'w') as f:
    json.dump(meta, f, ensure_ascii=False)
vecs.astype('<f4').tofile(os.path.join(golden, 'minilm-reference.f32'))
print(f'wrote {len(texts)} texts x {vecs.shape[1]} ({meta["source"]})')
