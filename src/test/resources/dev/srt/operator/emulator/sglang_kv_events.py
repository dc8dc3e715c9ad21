"""The test's side of the emulated engine's KV events, with the real programs' Python (pyzmq,
msgpack, msgspec): nothing here comes from the emulator.

  subscribe ENDPOINT TOPIC   one JSON line per message: {"topic", "seq", "batch"} (the payload
                             decoded by msgpack), after checking it also decodes as SGLang
                             0.5.21's KVEventBatch with msgspec (the struct definitions below are
                             those of sglang/srt/disaggregation/kv_events.py at 0.5.21)
  chain PAGE_SIZE            reads a JSON list of token ids on stdin, prints SGLang's event hashes
                             of its whole pages as a JSON list (sha256 over the parent digest and
                             the page's ids as little-endian uint32, first 8 bytes big-endian signed)
"""

import hashlib
import json
import struct
import sys
from typing import Any, Optional, Union

import msgpack
import msgspec
import zmq


class EventBatch(msgspec.Struct, array_like=True, gc=False):
    ts: float
    events: list[Any]
    attn_dp_rank: Optional[int] = None


class KVCacheEvent(msgspec.Struct, omit_defaults=True, gc=False, tag=True):
    pass


class BlockStored(KVCacheEvent):
    block_hashes: list[int]
    parent_block_hash: Optional[int]
    token_ids: list[int]
    block_size: int
    lora_id: Optional[int]
    medium: Optional[str] = None
    cache_salt: Optional[str] = None
    session_id: Optional[str] = None


class BlockRemoved(KVCacheEvent):
    block_hashes: list[int]
    medium: Optional[str] = None


class AllBlocksCleared(KVCacheEvent):
    pass


class KVEventBatch(EventBatch):
    events: list[Union[BlockStored, BlockRemoved, AllBlocksCleared]]


def subscribe(endpoint: str, topic: str) -> None:
    typed = msgspec.msgpack.Decoder(KVEventBatch)
    sock = zmq.Context.instance().socket(zmq.SUB)
    sock.setsockopt_string(zmq.SUBSCRIBE, topic)
    sock.connect(endpoint)
    print(json.dumps({"subscribed": endpoint}), flush=True)
    while True:
        frames = sock.recv_multipart()
        if len(frames) != 3:
            print(json.dumps({"error": f"{len(frames)} frames"}), flush=True)
            continue
        t, seq, payload = frames
        typed.decode(payload)  # raises, and ends this process, on anything SGLang would not have sent
        batch = msgpack.unpackb(payload, raw=False)
        print(json.dumps({"topic": t.decode(), "seq": int.from_bytes(seq, "big"), "batch": batch}), flush=True)


def chain(page_size: int) -> None:
    ids = json.load(sys.stdin)
    prior = b""
    out = []
    for start in range(0, len(ids) - len(ids) % page_size, page_size):
        prior = hashlib.sha256(prior + struct.pack(f"<{page_size}I", *ids[start:start + page_size])).digest()
        out.append(int.from_bytes(prior[:8], "big", signed=True))
    print(json.dumps(out))


if __name__ == "__main__":
    if sys.argv[1] == "subscribe":
        subscribe(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "chain":
        chain(int(sys.argv[2]))
    else:
        sys.exit(f"unknown mode {sys.argv[1]}")
