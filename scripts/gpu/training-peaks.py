#!/usr/bin/env python3
# Measures what PyTorch reports for one real training step (or, with
# --inference, one forward pass without gradients), to set beside
# memplan's modelled `max_memory_allocated` line (docs/memory-model.md, "The
# GPU check"). It is a check harness for a GPU machine, not part of what
# memplan ships: the reference it measures is PyTorch eager running a Hugging
# Face model, which only exists in Python.
#
# One case per run (a process of its own, so that the allocator's statistics
# are that case's alone). The model is built from a config.json with random
# weights (nothing is downloaded), trained for three steps with
# torch.optim.AdamW; the peak is read over the second step, when AdamW's
# states exist, as memplan's graph assumes. With --inference, three forward
# passes under torch.inference_mode() without a KV cache (memplan-gen's
# --mode prefill), each one's logits held until the next has returned, as a
# loop that reassigns them holds them; the peak is the second pass's.
# Prints one JSON line.
#
#   training-peaks.py NAME --config FILE --seq S --batch B --dtype f32|bf16
#       [--checkpointing] [--lora-rank R --lora-targets q,v]
#       [--head causal-lm|classification] [--attn sdpa|eager]
#       [--optimizer-impl foreach|for-loop] [--keep-grads]
#       [--grad-accum N] [--sdpa-backends LIST] [--ddp] [--breakdown]
#       [--inference] [--set KEY=VALUE ...]

import argparse
import json
import sys
import time


def breakdown(snapshot, base):
    """Replays the allocator's trace of one step: the blocks live at its
    highest point, grouped by the innermost line of model code (Hugging
    Face, PEFT or this script) that allocated them; allocations with no
    Python frame come from the autograd engine's thread (the backward)."""
    events = snapshot["device_traces"][0]
    completes = any(e["action"] == "free_completed" for e in events)
    free_action = "free_completed" if completes else "free_requested"
    live, current, peak, at_peak = {}, base, base, {}
    for e in events:
        if e["action"] == "alloc":
            live[e["addr"]] = e
            current += e["size"]
            if current > peak:
                peak, at_peak = current, dict(live)
        elif e["action"] == free_action:
            live.pop(e["addr"], None)
            current -= e["size"]
    groups = {}
    for e in at_peak.values():
        frames = e.get("frames") or []
        model = [f for f in frames if any(
            k in f["filename"] for k in ("/transformers/", "/peft/",
                                         "training-peaks"))]
        torch_frames = [f for f in frames if "/torch/" in f["filename"]]
        if model:
            key = "%s:%d %s" % (model[0]["filename"].split("/site-packages/")[-1],
                                model[0]["line"], model[0]["name"])
            if torch_frames:
                key += " <- " + torch_frames[0]["name"]
        elif frames:
            key = "%s:%d %s" % (frames[0]["filename"].split("/")[-1],
                                frames[0]["line"], frames[0]["name"])
        else:
            key = "(no Python frame: the backward pass)"
        size, count = groups.get(key, (0, 0))
        groups[key] = (size + e["size"], count + 1)
    rows = sorted(groups.items(), key=lambda kv: -kv[1][0])
    # The step's allocator events in order, for checking memplan's model of
    # the caching allocator (CachingAllocatorModel) against PyTorch's own
    # segments offline: [action, address, bytes].
    kept = ("alloc", free_action, "segment_alloc", "segment_free")
    return {"peak": peak, "before_the_step": base,
            "groups": [{"bytes": b, "count": c, "where": k}
                       for k, (b, c) in rows[:40]],
            "events": [[e["action"], e["addr"], e["size"]] for e in events
                       if e["action"] in kept]}


def inference(a, model, config, torch):
    """Three forward passes without gradients or a KV cache; the peaks of
    the second, the previous pass's logits held through it."""
    model.eval()
    gen = torch.Generator(device="cuda").manual_seed(0)
    ids = torch.randint(0, config.vocab_size, (a.batch, a.seq),
                        device="cuda", generator=gen)
    peaks, logits = [], None
    for step in range(3):
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        record = {"step": step,
                  "allocated_at_start": torch.cuda.memory_allocated()}
        began = time.perf_counter()
        with torch.inference_mode():
            logits = model(input_ids=ids, use_cache=False).logits
        torch.cuda.synchronize()
        record.update({"max_memory_allocated":
                       torch.cuda.max_memory_allocated(),
                       "max_memory_reserved": torch.cuda.max_memory_reserved(),
                       "seconds": round(time.perf_counter() - began, 4)})
        peaks.append(record)
    del logits
    return {"steps": peaks,
            "max_memory_allocated": peaks[1]["max_memory_allocated"],
            "max_memory_reserved": peaks[1]["max_memory_reserved"]}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("name")
    p.add_argument("--config", required=True)
    p.add_argument("--seq", type=int, required=True)
    p.add_argument("--batch", type=int, required=True)
    p.add_argument("--dtype", choices=["f32", "bf16"], required=True)
    p.add_argument("--checkpointing", action="store_true")
    p.add_argument("--lora-rank", type=int, default=0)
    p.add_argument("--lora-targets", default="q,v")
    p.add_argument("--head", default="causal-lm",
                   choices=["causal-lm", "classification"])
    p.add_argument("--attn", default="sdpa", choices=["sdpa", "eager"])
    p.add_argument("--optimizer-impl", default="foreach",
                   choices=["foreach", "for-loop"])
    p.add_argument("--keep-grads", action="store_true",
                   help="zero_grad(set_to_none=False): .grad lives through "
                   "the forward pass (memplan's --grad-buffer weight)")
    p.add_argument("--grad-accum", type=int, default=1,
                   help="micro-batches per optimizer step")
    p.add_argument("--sdpa-backends", default="",
                   help="restrict SDPA to these kernels (comma-separated: "
                   "flash, efficient, cudnn, math); default: PyTorch's choice")
    p.add_argument("--breakdown", action="store_true",
                   help="trace the measured step's allocations and print "
                   "the ones live at its peak, by the Python line that made "
                   "them")
    p.add_argument("--ddp", action="store_true",
                   help="wrap the model in DistributedDataParallel over one "
                   "rank (NCCL): its gradient buckets are a rank's whatever "
                   "the number of ranks")
    p.add_argument("--inference", action="store_true",
                   help="forward passes without gradients and without a KV "
                   "cache (memplan-gen --mode prefill), not training steps")
    p.add_argument("--set", action="append", default=[],
                   help="override a config field, KEY=VALUE (JSON value)")
    a = p.parse_args()

    import torch
    import transformers
    from transformers import (AutoConfig, AutoModelForCausalLM,
                              AutoModelForSequenceClassification)

    result = {"name": a.name, "torch": torch.__version__,
              "transformers": transformers.__version__,
              "gpu": torch.cuda.get_device_name(0)}
    with open(a.config) as f:
        fields = json.load(f)
    config = AutoConfig.for_model(fields.pop("model_type"), **fields)
    for item in a.set:
        key, value = item.split("=", 1)
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            pass
        setattr(config, key, value)
    dtype = {"f32": torch.float32, "bf16": torch.bfloat16}[a.dtype]

    torch.manual_seed(0)
    torch.set_default_dtype(dtype)
    with torch.device("cuda"):
        cls = (AutoModelForSequenceClassification
               if a.head == "classification" else AutoModelForCausalLM)
        model = cls.from_config(config, attn_implementation=a.attn)
    torch.set_default_dtype(torch.float32)
    model.to(dtype)  # a config's torch_dtype must not win over --dtype
    result["attn_implementation"] = model.config._attn_implementation
    result["parameters"] = sum(t.numel() for t in model.parameters())
    result["parameter_dtypes"] = sorted({str(t.dtype)
                                         for t in model.parameters()})

    if a.lora_rank:
        from peft import LoraConfig, get_peft_model
        names = {"q": "q_proj", "k": "k_proj", "v": "v_proj", "o": "o_proj",
                 "gate": "gate_proj", "up": "up_proj", "down": "down_proj"}
        lora = LoraConfig(r=a.lora_rank, lora_alpha=2 * a.lora_rank,
                          lora_dropout=0.0,
                          target_modules=[names[t] for t in
                                          a.lora_targets.split(",")])
        # Adapters in the base's type, as memplan's graph has them (PEFT
        # would otherwise upcast them to f32 and cast every input).
        try:
            model = get_peft_model(model, lora, autocast_adapter_dtype=False)
        except TypeError:  # a PEFT from before the option: no upcast anyway
            model = get_peft_model(model, lora)
        result["adapter_dtypes"] = sorted({str(t.dtype) for t in
                                           model.parameters()
                                           if t.requires_grad})
    if a.inference:
        if a.lora_rank or a.checkpointing or a.ddp or a.grad_accum != 1:
            p.error("--inference measures a plain forward pass")
        result.update(inference(a, model, config, torch))
        print(json.dumps(result), flush=True)
        return 0
    if a.checkpointing:
        model.gradient_checkpointing_enable(
            gradient_checkpointing_kwargs={"use_reentrant": False})
    model.train()
    if a.ddp:
        import os
        import torch.distributed as dist
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", str(20000 + os.getpid() % 20000))
        dist.init_process_group("nccl", rank=0, world_size=1)
        model = torch.nn.parallel.DistributedDataParallel(model,
                                                          device_ids=[0])

    trained = [t for t in model.parameters() if t.requires_grad]
    result["trained_parameters"] = sum(t.numel() for t in trained)
    optimizer = torch.optim.AdamW(trained, lr=1e-5,
                                  foreach=a.optimizer_impl == "foreach")
    gen = torch.Generator(device="cuda").manual_seed(0)
    ids = torch.randint(0, config.vocab_size, (a.batch, a.seq),
                        device="cuda", generator=gen)
    if a.head == "classification":
        labels = torch.randint(0, config.num_labels, (a.batch,),
                               device="cuda", generator=gen)
    else:
        labels = ids.clone()

    def backends():
        import contextlib
        if not a.sdpa_backends:
            return contextlib.nullcontext()
        from torch.nn.attention import SDPBackend, sdpa_kernel
        names = {"flash": SDPBackend.FLASH_ATTENTION,
                 "efficient": SDPBackend.EFFICIENT_ATTENTION,
                 "cudnn": SDPBackend.CUDNN_ATTENTION,
                 "math": SDPBackend.MATH}
        return sdpa_kernel([names[n] for n in a.sdpa_backends.split(",")])

    peaks = []
    for step in range(3):
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        start = torch.cuda.memory_allocated()
        record = {"step": step, "allocated_at_start": start}
        tracing = a.breakdown and step == 1
        if tracing:
            # The segments the step starts with: [address, bytes, in use].
            result["segments_before_the_step"] = [
                [g["address"], g["total_size"], g["allocated_size"]]
                for g in torch.cuda.memory._snapshot()["segments"]]
            torch.cuda.memory._record_memory_history(
                enabled="all", context="alloc", stacks="python",
                max_entries=2000000)
        began = time.perf_counter()
        highest = [0, 0]  # allocated, reserved: each phase resets the peak

        def phase(name):
            torch.cuda.synchronize()
            record[name + "_peak"] = torch.cuda.max_memory_allocated()
            record[name + "_end"] = torch.cuda.memory_allocated()
            highest[0] = max(highest[0], torch.cuda.max_memory_allocated())
            highest[1] = max(highest[1], torch.cuda.max_memory_reserved())
            torch.cuda.reset_peak_memory_stats()

        with backends():
            for micro in range(a.grad_accum):
                loss = model(input_ids=ids, labels=labels).loss / a.grad_accum
                phase("forward%d" % micro)
                loss.backward()
                del loss
                phase("backward%d" % micro)
        optimizer.step()
        optimizer.zero_grad(set_to_none=not a.keep_grads)
        phase("optimizer")
        if tracing:
            result["peak_breakdown"] = breakdown(
                torch.cuda.memory._snapshot(), start)
            torch.cuda.memory._record_memory_history(enabled=None)
        record.update({"max_memory_allocated": highest[0],
                       "max_memory_reserved": highest[1],
                       "seconds": round(time.perf_counter() - began, 4)})
        peaks.append(record)
    result["steps"] = peaks
    result["max_memory_allocated"] = peaks[1]["max_memory_allocated"]
    result["max_memory_reserved"] = peaks[1]["max_memory_reserved"]
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    sys.exit(main())
