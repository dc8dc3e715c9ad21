# Tokenizes with the real transformers what EmulatedTokenizerIT sends: {"dir", "texts", "conversations"}
# on stdin; prints {"texts": [[ids]...], "corpus": [[ids]...], "corpus_text": [...], "chat": [[ids]...],
# "decoded": [...]}. The corpus is AIPerf's own prompt corpus, chunked as AIPerf chunks it.
import json
import pathlib
import sys

import aiperf
from transformers import AutoTokenizer

req = json.load(sys.stdin)
tok = AutoTokenizer.from_pretrained(req["dir"])
corpus_path = pathlib.Path(aiperf.__file__).parent / "dataset" / "generator" / "assets" / "shakespeare.txt"
lines = [l.strip() for l in corpus_path.read_text(encoding="utf-8").splitlines() if l.strip()]
chunks = [" ".join(lines[i:i + 200]) for i in range(0, len(lines), 200)]
out = {
    "texts": [tok.encode(t, add_special_tokens=True) for t in req["texts"]],
    "decoded": [tok.decode(tok.encode(t)) for t in req["texts"]],
    "corpus_text": chunks,
    "corpus": [tok.encode(c) for c in chunks],
    "chat": [tok.apply_chat_template(c, add_generation_prompt=True, tokenize=True, return_dict=False) for c in req["conversations"]],
}
json.dump(out, sys.stdout)
