"""How close a question comes to an entry as a whole sentence, beside the words it shares: a small sentence-embedding
model (the first three layers of all-MiniLM-L6-v2, quantized to int8 and run by ONNX Runtime on the CPU) turns a text
into a unit vector; the cosine of two texts' vectors says how alike they are, word pieces, related words and word order
included. The second look (rerank.py) weighs the question's best cosine with each result's own text and its players'
questions ("semantic"). On its own the model ranks worse than the first pass (all six layers alone put the right
entry first for 85.8 % of the covered questions of the parts tuned on, the search for 91.2 %); as one more feature of the second look it
puts more right answers first on the parts of tests/rules/data/eval left out while it learned (train_rules_rerank.py).

The model and its tokenizer lie in assistant/data/rules/model/ (its README says where they come from and how they were
made). The vectors of the entries and of their players' questions are worked out once and kept in
assistant/data/rules/vectors.npz (bench/build_rules_vectors.py writes it), each under a digest of its text, with the
digest of the model that made them: an entry edited since is encoded again when the index is built, and the whole file
is set aside when another model made it, so a stale file costs time, never a wrong vector.

A question is encoded (about 1 ms on one core) when its first results answer it (the questions asked before,
asked.py, the second look, an answer below the third that may take its place: `RulesIndex._nearest_third`); the
search starts it on a thread of its own as it begins, so that the model runs on the other core while the words are
read (ONNX Runtime lets go of Python's lock as it runs), and the last questions' vectors are kept.
"""
from __future__ import annotations

import functools
import hashlib
import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parents[1] / "data" / "rules"
MODEL_FILE = DATA / "model" / "minilm-l3-int8.onnx"
TOKENIZER_FILE = DATA / "model" / "tokenizer.json"
VECTORS_FILE = DATA / "vectors.npz"
MAX_TOKENS = 256            # the model's own limit (sentence-transformers' max_seq_length for it)
KEPT_QUESTIONS = 256       # the vectors of the last questions asked, kept
ENTRY_TEXT_CHARS = 400      # an entry is its title, keywords and the start of its text: what it is about


def entry_text(title: str, keywords: tuple[str, ...] | list[str], text: str) -> str:
    return f"{title}. {', '.join(keywords)}. {text[:ENTRY_TEXT_CHARS]}"


def digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


class Encoder:
    """The model and its tokenizer, loaded once per process (see `encoder()`); safe to share between threads."""

    def __init__(self, model: Path = MODEL_FILE, tokenizer: Path = TOKENIZER_FILE):
        import onnxruntime
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(tokenizer))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        options = onnxruntime.SessionOptions()
        # one thread per question (a second one gains little on so small a model, and the other core serves the
        # next request)
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self._session = onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self._kept = functools.lru_cache(maxsize=KEPT_QUESTIONS)(self._vector)
        self._pending: dict[str, Future] = {}  # questions being encoded on the thread of `start`
        self._pending_lock = threading.Lock()

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit vectors (len(texts) x 384, float32), one text at a time: the int8 model scales each run's activations
        by their range, so a text padded in a batch would get a slightly different vector from the one it gets alone."""
        return np.stack([self.vector(t) for t in texts]).astype(np.float32) if texts else np.zeros((0, 384), np.float32)

    def vector(self, text: str) -> np.ndarray:
        """The unit vector of one text (read-only: the last texts' are kept, a search asks for its question's twice
        and the page, its fragment and the suggestions ask the same question)."""
        with self._pending_lock:
            pending = self._pending.pop(text, None)
        return pending.result() if pending is not None else self._kept(text)

    def start(self, text: str) -> None:
        """Begin encoding `text` on the encoder's own thread; `vector(text)` then waits only for what is left."""
        with self._pending_lock:
            if text in self._pending:
                return
            if len(self._pending) >= KEPT_QUESTIONS:  # (started and never asked for: a question not answered)
                self._pending.clear()
            self._pending[text] = _background().submit(self._kept, text)
        # hand Python's lock to that thread now: it holds it only to cut the text into word pieces, then runs the model
        # without it (left to ask for it, it would wait for the switch interval, 5 ms, while the words are read here)
        time.sleep(0)

    def forget(self) -> None:
        """Drop the kept vectors (a benchmark times a question cold)."""
        with self._pending_lock:
            pending, self._pending = list(self._pending.values()), {}
        for f in pending:
            f.result()
        self._kept.cache_clear()

    def _vector(self, text: str) -> np.ndarray:
        ids = np.array([self._tokenizer.encode(text).ids], dtype=np.int64)
        vector = self._session.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids)})[0][0]
        vector.setflags(write=False)
        return vector


_encoder: Encoder | None = None
_encoder_lock = threading.Lock()


_pool: ThreadPoolExecutor | None = None
_pool_pid = 0


def _background() -> ThreadPoolExecutor:
    """One thread that encodes the questions a search starts (one core for the model, the other for the words). A
    process forked from one that had it starts its own: the thread does not cross the fork, and a pool that thinks it
    has one would never run a question."""
    global _pool, _pool_pid
    with _encoder_lock:
        if _pool is None or _pool_pid != os.getpid():
            _pool, _pool_pid = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rules-encoder"), os.getpid()
        return _pool


def encoder() -> Encoder:
    global _encoder
    with _encoder_lock:
        if _encoder is None:
            _encoder = Encoder()
        return _encoder


def warm_up() -> threading.Thread:
    """Load the model on a thread of its own (about 0.2 s), so that a worker's first rules search does not wait for
    it; a search that comes sooner waits only for the rest of the load."""
    thread = threading.Thread(target=encoder, name="rules-model-load", daemon=True)
    thread.start()
    return thread


@functools.lru_cache(maxsize=4)
def model_digest(model: Path = MODEL_FILE) -> str:
    return hashlib.sha1(model.read_bytes()).hexdigest()[:16]


def load_vectors(path: Path = VECTORS_FILE, model: Path = MODEL_FILE) -> dict[str, np.ndarray]:
    """The kept vectors by the digest of their text (none when the file is absent, or was written by another model)."""
    if not path.exists():
        return {}
    with np.load(path) as data:
        if "model" not in data or str(data["model"]) != model_digest(model):
            return {}
        return dict(zip((str(d) for d in data["digests"]), data["vectors"].astype(np.float32)))


def vectors_of(texts: list[str], kept: dict[str, np.ndarray] | None = None) -> tuple[np.ndarray, int]:
    """The vectors of `texts` (len(texts) x 384, float32), from those kept in vectors.npz; a text edited or added since
    it was written is encoded now. Also how many were encoded."""
    kept = load_vectors() if kept is None else kept
    keys = [digest(t) for t in texts]
    missing = sorted({k: t for k, t in zip(keys, texts) if k not in kept}.items())
    if missing:
        # (a model of its own, freed by the collection the server runs before it forks: the index is built in the
        # server's first process, and the shared model is loaded in each worker after the fork)
        kept = dict(kept)
        kept.update(zip((k for k, _ in missing), Encoder().encode([t for _, t in missing])))
    vectors = np.stack([kept[k] for k in keys]).astype(np.float32) if keys else np.zeros((0, 384), dtype=np.float32)
    return vectors, len(missing)


class Meanings:
    """The vectors of each entry's text and of its players' questions, and how near a question comes to each entry:
    the best cosine among the entry's own text and its questions."""

    def __init__(self, entry_texts: list[str], asks: list[tuple[str, ...]], kept: dict[str, np.ndarray] | None = None):
        # each entry's text, then its questions: one run of rows per entry
        texts = [t for text, group in zip(entry_texts, asks) for t in (text, *group)]
        self.vectors, self.encoded_at_build = vectors_of(texts, kept)
        self.starts = np.cumsum([0] + [1 + len(group) for group in asks]) if asks else np.zeros(1, dtype=np.int64)

    def nearness(self, vector: np.ndarray, rows: list[int]) -> list[float]:
        """For each entry row of `rows`, the best cosine of `vector` with its text or one of its questions."""
        return [float((self.vectors[self.starts[r]:self.starts[r + 1]] @ vector).max()) for r in rows]


def write_vectors(texts: list[str], path: Path = VECTORS_FILE) -> int:
    """Encode `texts` and keep their vectors (float16) under their digests; returns how many."""
    unique = sorted({digest(t): t for t in texts}.items())
    vectors = encoder().encode([t for _, t in unique])
    np.savez_compressed(path, digests=np.array([k for k, _ in unique]), vectors=vectors.astype(np.float16),
                        model=np.array(model_digest()))
    return len(unique)
