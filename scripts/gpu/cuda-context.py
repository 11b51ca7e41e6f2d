#!/usr/bin/env python3
# The CUDA context and the libraries' own device memory, measured with
# PyTorch on the GPU machine (docs/fit.md, "CUDA context"): the device's
# used memory (cudaMemGetInfo, alone on the GPU) less what PyTorch's caching
# allocator holds, after initialisation, after the first cuBLAS matmul and
# after the first fused attention. Prints one JSON object.
import json

import torch
import torch.nn.functional as F


def stage(name, result):
    torch.cuda.synchronize()
    free, total = torch.cuda.mem_get_info()
    reserved = torch.cuda.memory_reserved()
    result[name] = {"device_used": total - free, "torch_reserved": reserved,
                    "outside_the_allocator": total - free - reserved}


def main():
    result = {"torch": torch.__version__, "cuda": torch.version.cuda,
              "gpu": torch.cuda.get_device_name(0),
              "capability": "sm_%d%d" % torch.cuda.get_device_capability(0)}
    torch.zeros(1, device="cuda")
    stage("initialised", result)
    a = torch.randn(1024, 1024, device="cuda", dtype=torch.bfloat16)
    (a @ a).sum().item()
    stage("after_a_bf16_matmul", result)
    q = torch.randn(1, 8, 1024, 64, device="cuda", dtype=torch.bfloat16)
    F.scaled_dot_product_attention(q, q, q, is_causal=True).sum().item()
    stage("after_sdpa", result)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
