#!/usr/bin/env python3
# PyTorch eager on the shapes of the bundled examples, for the time of the
# generated CUDA beside it (docs/codegen.md, "On a GPU"): GPT-2 small's
# forward pass (1 x 1,024 tokens, logits), one LLaMA-7B decoder layer
# (1 x 2,048 tokens, causal, its rotary embedding computed in the step) and
# one BERT-base layer (8 x 512 tokens), f16, SDPA, random weights, no
# autograd. Each step is queued RUNS times back to back and timed with CUDA
# events after three warm-up runs, as the generated main's
# MEMPLAN_TIMED_RUNS times its own. Prints one JSON line per example.
import json
import sys

import torch


def timed(step, runs):
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(runs):
        step()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / runs


def gpt2_small():
    from transformers import AutoConfig, GPT2LMHeadModel
    with open("examples/hf-configs/gpt2.json") as f:
        fields = json.load(f)
    config = AutoConfig.for_model(fields.pop("model_type"), **fields)
    config._attn_implementation = "sdpa"
    model = GPT2LMHeadModel(config).cuda().half().eval()
    ids = torch.randint(0, config.vocab_size, (1, 1024), device="cuda")
    return lambda: model(input_ids=ids, use_cache=False).logits


def llama7b_layer():
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import (LlamaDecoderLayer,
                                                          LlamaRotaryEmbedding)
    config = LlamaConfig(hidden_size=4096, intermediate_size=11008,
                         num_attention_heads=32, num_key_value_heads=32,
                         rms_norm_eps=1e-6, max_position_embeddings=4096)
    config._attn_implementation = "sdpa"
    layer = LlamaDecoderLayer(config, layer_idx=0).cuda().half().eval()
    rotary = LlamaRotaryEmbedding(config).cuda()
    x = torch.randn(1, 2048, 4096, device="cuda", dtype=torch.float16)
    positions = torch.arange(2048, device="cuda")[None]
    return lambda: layer(x, position_ids=positions,
                         position_embeddings=rotary(x, positions))


def bert_base_layer():
    from transformers import BertConfig
    from transformers.models.bert.modeling_bert import BertLayer
    config = BertConfig()
    config._attn_implementation = "sdpa"
    layer = BertLayer(config).cuda().half().eval()
    x = torch.randn(8, 512, 768, device="cuda", dtype=torch.float16)
    return lambda: layer(x)


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for name, make in [("gpt2-small", gpt2_small),
                       ("llama7b-layer", llama7b_layer),
                       ("bert-base-layer", bert_base_layer)]:
        result = {"example": name, "runs": runs, "torch": torch.__version__}
        try:
            with torch.inference_mode():
                result["ms_each"] = round(timed(make(), runs), 4)
        except Exception as error:  # one example's failure stops no other
            result["error"] = "%s: %s" % (type(error).__name__, error)
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
