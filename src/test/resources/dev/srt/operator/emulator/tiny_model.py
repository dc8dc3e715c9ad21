"""Writes a model directory the real Dynamo sidecar and frontend accept (tokenizer.json,
tokenizer_config.json with a chat template, config.json, generation_config.json) with the real
programs' `tokenizers`: a word-level vocabulary, nothing downloaded. Usage: tiny_model.py DIR"""

import json
import os
import sys

from tokenizers import Tokenizer, decoders, models, pre_tokenizers

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
vocab = {"<unk>": 0, "<s>": 1, "</s>": 2, "user": 3, "assistant": 4, "system": 5, ":": 6}
for i in range(500):
    vocab[f"w{i}"] = len(vocab)
tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tok.decoder = decoders.WordPiece()
tok.save(os.path.join(out, "tokenizer.json"))
with open(os.path.join(out, "tokenizer_config.json"), "w") as f:
    json.dump({"tokenizer_class": "PreTrainedTokenizerFast", "bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>",
               "chat_template": "{% for m in messages %}{{ m['role'] }} : {{ m['content'] }} {% endfor %}assistant :"}, f)
with open(os.path.join(out, "config.json"), "w") as f:
    json.dump({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "vocab_size": len(vocab),
               "max_position_embeddings": 4096, "bos_token_id": 1, "eos_token_id": 2, "hidden_size": 64,
               "num_attention_heads": 4, "num_hidden_layers": 2}, f)
with open(os.path.join(out, "generation_config.json"), "w") as f:
    json.dump({"bos_token_id": 1, "eos_token_id": 2}, f)
