//===- MemPlanOps.td - memplan op definitions --------------*- tablegen -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANOPS_TD
#define MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANOPS_TD

include "memplan/Dialect/MemPlan/IR/MemPlanAttributes.td"
include "memplan/Dialect/MemPlan/IR/MemPlanDialect.td"
include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def MemPlan_Int4 : I<4>;

// Every tensor a transformer graph moves around: floats for activations and
// weights, i8/i4 for quantized weights, i32/i64 for token ids and positions.
def MemPlan_Tensor
    : StaticShapeTensorOf<[F32, F16, BF16, I8, MemPlan_Int4, I32, I64]>;
def MemPlan_FloatTensor : StaticShapeTensorOf<[F32, F16, BF16]>;
// A weight operand may also be quantized.
def MemPlan_WeightTensor
    : StaticShapeTensorOf<[F32, F16, BF16, I8, MemPlan_Int4]>;
def MemPlan_IdTensor : StaticShapeTensorOf<[I32, I64]>;

// A number of bytes: an i64 attribute, never negative (checked by ODS).
def MemPlan_ByteCount : ConfinedAttr<I64Attr, [IntNonNegative]>;
def MemPlan_FlopCount : ConfinedAttr<I64Attr, [IntNonNegative]>;

// Interface shorthands: a plain op uses the interface defaults (fresh result,
// no in-place, no scratch); the others override one method.
defvar PlainBuffers = MemPlan_BufferPlanningOpInterface;
defvar InPlaceBuffers = DeclareOpInterfaceMethods<
    MemPlan_BufferPlanningOpInterface, ["getInPlaceOperands"]>;
defvar AliasingBuffers = DeclareOpInterfaceMethods<
    MemPlan_BufferPlanningOpInterface, ["getAliasedOperand"]>;
// Ops that may be run again (rematerialisation): one FLOP per result element
// by default; `CountedFlops` ops count their own (FlopCounts.cpp).
defvar Recomputable = MemPlan_RecomputableOpInterface;
defvar CountedFlops = DeclareOpInterfaceMethods<
    MemPlan_RecomputableOpInterface, ["getFlopCount"]>;

// Result types: every op whose result type follows from its operands and
// attributes implements InferTypeOpInterface, so it is built without one
// (`AddOp::create(b, loc, lhs, rhs)`). Where the result is the type of an
// operand (AllTypesMatch), ODS writes the inference; the others compute it in
// one function that their verifier runs too (MemPlanOps.cpp). Only
// `embedding` of a quantized table, `reshape`, `cast` and `op` take the
// result type from their writer.
defvar ResultOfOperandType = DeclareOpInterfaceMethods<InferTypeOpInterface>;
defvar ResultTypeInferred = InferTypeOpAdaptor;

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def MemPlan_MatmulOp : MemPlan_Op<"matmul", [Pure, ResultTypeInferred,
    CountedFlops,
    DeclareOpInterfaceMethods<MemPlan_BufferPlanningOpInterface,
                              ["getScratchBytes",
                               "isScratchLibraryWorkspace"]>]> {
  let summary = "Batched matrix multiplication with transpose flags";
  let description = [{
    `result[..., m, n] = sum_k lhs[..., m, k] * rhs[..., k, n]`, where
    `transpose_lhs` reads `lhs` as `[..., k, m]` and `transpose_rhs` reads
    `rhs` as `[..., n, k]` (the layout of PyTorch's `nn.Linear` weights).
    Both operands have rank >= 2; their batch dimensions broadcast as in numpy
    (a rank-2 weight is shared by every batch). The result has the element type
    of `lhs`; `rhs` may be a quantized weight (i8/i4) when `lhs` is a float
    tensor (weight-only quantization, dequantized inside the kernel).

    `workspace_bytes`, when set, is scratch memory for the matmul library
    (the cuBLAS workspace of the CUDA lowering), planned in the arena like
    any scratch: live while the matmul runs. memplan-gen sets it to the size
    NVIDIA recommends for the target GPU (see docs/generator.md).

    ```mlir
    %y = memplan.matmul %x, %w : tensor<1x1024x768xf16>, tensor<768x3072xf16>
           -> tensor<1x1024x3072xf16>
    ```
  }];
  let arguments = (ins MemPlan_Tensor:$lhs, MemPlan_WeightTensor:$rhs,
                       UnitAttr:$transpose_lhs, UnitAttr:$transpose_rhs,
                       OptionalAttr<MemPlan_ByteCount>:$workspace_bytes);
  let results = (outs MemPlan_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise arithmetic with numpy broadcasting
//===----------------------------------------------------------------------===//


class MemPlan_BinaryOp<string mnemonic, string formula>
    : MemPlan_Op<mnemonic, [Pure, InPlaceBuffers, ResultTypeInferred,
                            Recomputable]> {
  let summary = "Elementwise " # mnemonic # " with numpy broadcasting";
  let description = [{
    `result = }] # formula # [{`, elementwise. Operand shapes broadcast as in
    numpy: aligned from the trailing dimension, each pair of sizes equal or
    one of them 1. Both operands and the result share one element type. The
    result may overwrite an operand of the same shape that dies here.

    ```mlir
    %r = memplan.}] # mnemonic # [{ %a, %b : tensor<1x1024x768xf16>, tensor<768xf16>
           -> tensor<1x1024x768xf16>
    ```
  }];
  let arguments = (ins MemPlan_Tensor:$lhs, MemPlan_Tensor:$rhs);
  let results = (outs MemPlan_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
  // One definition for the four ops (MemPlanOps.cpp has the helpers).
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return verifyBinaryOp(*this);
    }
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, ::std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferBinaryReturnTypes<$cppClass>(location, adaptor, types);
    }
    ::llvm::SmallVector<unsigned> $cppClass::getInPlaceOperands(unsigned) {
      return sameTypeOperands(*this, {0, 1});
    }
  }];
}

def MemPlan_AddOp : MemPlan_BinaryOp<"add", "lhs + rhs">;
def MemPlan_SubOp : MemPlan_BinaryOp<"sub", "lhs - rhs">;
def MemPlan_MulOp : MemPlan_BinaryOp<"mul", "lhs * rhs">;
def MemPlan_DivOp : MemPlan_BinaryOp<"div", "lhs / rhs">;

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

class MemPlan_ActivationOp<string mnemonic, string formula>
    : MemPlan_Op<mnemonic, [Pure, InPlaceBuffers, CountedFlops,
                            AllTypesMatch<["input", "result"]>,
                            ResultOfOperandType]> {
  let summary = "Elementwise " # mnemonic # " activation";
  let description = [{
    `result = }] # formula # [{`, elementwise on a float tensor. The result may
    overwrite its input when the input dies here.

    ```mlir
    %r = memplan.}] # mnemonic # [{ %x : tensor<1x1024x3072xf16>
    ```
  }];
  let arguments = (ins MemPlan_FloatTensor:$input);
  let results = (outs MemPlan_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def MemPlan_GeluOp : MemPlan_ActivationOp<"gelu",
    "0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))">;
def MemPlan_SiluOp : MemPlan_ActivationOp<"silu", "x / (1 + exp(-x))">;
def MemPlan_ReluOp : MemPlan_ActivationOp<"relu", "max(x, 0)">;

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

def MemPlan_SoftmaxOp : MemPlan_Op<"softmax", [Pure, InPlaceBuffers,
    CountedFlops,
    AllTypesMatch<["input", "result"]>, ResultOfOperandType]> {
  let summary = "Softmax over one axis";
  let description = [{
    `result = exp(x - max(x)) / sum(exp(x - max(x)))` along `axis` (negative
    values count from the last dimension). The result may overwrite its input.

    ```mlir
    %p = memplan.softmax %s axis(-1) : tensor<1x12x1024x1024xf32>
    ```
  }];
  let arguments = (ins MemPlan_FloatTensor:$input, I64Attr:$axis);
  let results = (outs MemPlan_FloatTensor:$result);
  let assemblyFormat = "$input `axis` `(` $axis `)` attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def MemPlan_LayerNormOp : MemPlan_Op<"layer_norm", [Pure, InPlaceBuffers,
    CountedFlops,
    AllTypesMatch<["input", "result"]>, AllTypesMatch<["gamma", "beta"]>,
    ResultOfOperandType]> {
  let summary = "Layer normalisation over the last dimension";
  let description = [{
    `result = (x - mean) / sqrt(var + epsilon) * gamma + beta` over the last
    dimension of `input`. `gamma` and `beta` are 1-D with the size of that
    dimension and the element type of `input`. The result may overwrite its
    input.

    ```mlir
    %n = memplan.layer_norm %x, %g, %b {epsilon = 1.0e-05}
           : tensor<1x1024x768xf16>, tensor<768xf16>
    ```
  }];
  let arguments = (ins MemPlan_FloatTensor:$input, MemPlan_FloatTensor:$gamma,
                       MemPlan_FloatTensor:$beta,
                       DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs MemPlan_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta attr-dict `:` type($input) `,` type($gamma)
  }];
  let hasVerifier = 1;
}

def MemPlan_RMSNormOp : MemPlan_Op<"rms_norm", [Pure, InPlaceBuffers,
    CountedFlops,
    AllTypesMatch<["input", "result"]>, ResultOfOperandType]> {
  let summary = "RMS normalisation over the last dimension";
  let description = [{
    `result = x / sqrt(mean(x^2) + epsilon) * gamma` over the last dimension
    of `input` (LLaMA's RMSNorm). `gamma` is 1-D with the size of that
    dimension and the element type of `input`. The result may overwrite its
    input.

    ```mlir
    %n = memplan.rms_norm %x, %g {epsilon = 1.0e-06}
           : tensor<1x2048x4096xf16>, tensor<4096xf16>
    ```
  }];
  let arguments = (ins MemPlan_FloatTensor:$input, MemPlan_FloatTensor:$gamma,
                       DefaultValuedAttr<F64Attr, "1.0e-6">:$epsilon);
  let results = (outs MemPlan_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $gamma attr-dict `:` type($input) `,` type($gamma)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Embeddings and positions
//===----------------------------------------------------------------------===//

def MemPlan_EmbeddingOp : MemPlan_Op<"embedding", [Pure, PlainBuffers,
    CountedFlops]> {
  let summary = "Embedding lookup: rows of a table selected by token ids";
  let description = [{
    `result[i..., h] = table[ids[i...], h]`. `table` is `[vocab, hidden]`,
    `ids` is an integer tensor of any rank, and the result has shape
    `ids.shape + [hidden]` with the element type of the table (a quantized
    table gives a float result of the type written).

    ```mlir
    %e = memplan.embedding %wte, %ids : tensor<50257x768xf16>, tensor<1x1024xi32>
           -> tensor<1x1024x768xf16>
    ```
  }];
  let arguments = (ins MemPlan_WeightTensor:$table, MemPlan_IdTensor:$ids);
  let results = (outs MemPlan_FloatTensor:$result);
  let assemblyFormat = [{
    $table `,` $ids attr-dict `:` type($table) `,` type($ids) `->` type($result)
  }];
  let hasVerifier = 1;
}

def MemPlan_RopeOp : MemPlan_Op<"rope", [Pure, InPlaceBuffers, CountedFlops,
    AllTypesMatch<["input", "result"]>, ResultOfOperandType]> {
  let summary = "Rotary position embedding";
  let description = [{
    Rotates each pair `(x[2i], x[2i+1])` of the last dimension of
    `input : [batch, seq, heads, head_dim]` by the angle
    `positions[s] * theta^(-2i / head_dim)`. `positions` is a 1-D integer
    tensor with one entry per sequence position. `head_dim` must be even. The
    result may overwrite its input.

    ```mlir
    %q2 = memplan.rope %q, %pos {theta = 10000.0}
            : tensor<1x2048x32x128xf16>, tensor<2048xi64>
    ```
  }];
  let arguments = (ins MemPlan_FloatTensor:$input, MemPlan_IdTensor:$positions,
                       DefaultValuedAttr<F64Attr, "10000.0">:$theta);
  let results = (outs MemPlan_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $positions attr-dict `:` type($input) `,` type($positions)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def MemPlan_TransposeOp : MemPlan_Op<"transpose", [Pure, PlainBuffers,
    CountedFlops,
                                                  ResultTypeInferred]> {
  let summary = "Permute dimensions (a copy)";
  let description = [{
    `result[i_perm[0], ..., i_perm[n-1]] = input[i_0, ..., i_n-1]`: result
    dimension `d` is input dimension `permutation[d]`. The result is a new
    buffer (the data moves).

    ```mlir
    %t = memplan.transpose %x permutation = [0, 2, 1, 3]
           : tensor<1x1024x12x64xf16> -> tensor<1x12x1024x64xf16>
    ```
  }];
  let arguments = (ins MemPlan_Tensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs MemPlan_Tensor:$result);
  let assemblyFormat = [{
    $input `permutation` `=` $permutation attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def MemPlan_ReshapeOp : MemPlan_Op<"reshape", [Pure, CountedFlops,
    DeclareOpInterfaceMethods<MemPlan_BufferPlanningOpInterface,
                              ["getAliasedOperand", "writesAliasedOperand"]>]> {
  let summary = "Reinterpret a tensor with another shape (a view, no copy)";
  let description = [{
    Same elements, same element type, same row-major order, another shape.
    The result is a view of the operand's buffer: it gets no memory of its
    own and keeps the operand's buffer alive as long as it is used.

    ```mlir
    %h = memplan.reshape %x : tensor<1x1024x768xf16> -> tensor<1x1024x12x64xf16>
    ```
  }];
  let arguments = (ins MemPlan_Tensor:$input);
  let results = (outs MemPlan_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def MemPlan_ConcatOp : MemPlan_Op<"concat", [Pure, PlainBuffers, CountedFlops,
                                            ResultTypeInferred]> {
  let summary = "Concatenate tensors along one axis";
  let description = [{
    Joins one or more tensors of the same rank and element type along `axis`
    (negative values count from the end); every other dimension must agree.

    ```mlir
    %c = memplan.concat %a, %b axis(1)
           : tensor<1x4x64xf16>, tensor<1x6x64xf16> -> tensor<1x10x64xf16>
    ```
  }];
  let arguments = (ins Variadic<MemPlan_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs MemPlan_Tensor:$result);
  let assemblyFormat = [{
    $inputs `axis` `(` $axis `)` attr-dict `:` type($inputs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def MemPlan_SliceOp : MemPlan_Op<"slice", [Pure, PlainBuffers, CountedFlops,
                                          ResultTypeInferred]> {
  let summary = "Extract a box of a tensor (a copy)";
  let description = [{
    `result[i...] = input[offsets + i...]` with unit strides: the result has
    shape `sizes`, and `offsets + sizes` must stay inside the input along every
    dimension. The result is a new buffer.

    ```mlir
    %q = memplan.slice %qkv offsets = [0, 0, 0] sizes = [1, 1024, 768]
           : tensor<1x1024x2304xf16> -> tensor<1x1024x768xf16>
    ```
  }];
  let arguments = (ins MemPlan_Tensor:$input, DenseI64ArrayAttr:$offsets,
                       DenseI64ArrayAttr:$sizes);
  let results = (outs MemPlan_Tensor:$result);
  let assemblyFormat = [{
    $input `offsets` `=` $offsets `sizes` `=` $sizes attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def MemPlan_CastOp : MemPlan_Op<"cast", [Pure, InPlaceBuffers, Recomputable]> {
  let summary = "Convert the element type";
  let description = [{
    Converts every element to the result's element type (round to nearest
    even for floats, dequantize integers to floats, saturate floats to
    integers). Shapes are equal. The result may overwrite its input when the
    input dies here and its buffer is large enough.

    ```mlir
    %h = memplan.cast %x : tensor<1x1024x768xf32> -> tensor<1x1024x768xf16>
    ```
  }];
  let arguments = (ins MemPlan_Tensor:$input);
  let results = (outs MemPlan_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

def MemPlan_AttentionOp : MemPlan_Op<"attention", [Pure, ResultTypeInferred,
    CountedFlops,
    DeclareOpInterfaceMethods<MemPlan_BufferPlanningOpInterface,
                              ["getScratchBytes"]>]> {
  let summary = "Fused scaled dot-product attention (grouped-query heads)";
  let description = [{
    `result = softmax(scale * query @ key^T + mask) @ value` per head, computed
    without materialising the score matrix. Layouts:
    `query : [batch, q_heads, q_len, head_dim]`,
    `key : [batch, kv_heads, kv_len, head_dim]`,
    `value : [batch, kv_heads, kv_len, v_dim]`, result
    `[batch, q_heads, q_len, v_dim]`, or with `token_major`
    `[batch, q_len, q_heads, v_dim]`: each query's heads side by side, the
    layout FlashAttention and PyTorch's fused kernels write, so that the
    output projection reads it through a reshape (a view) instead of a
    transposed copy. `q_heads` must be a multiple of `kv_heads`
    (grouped-query attention; equal for multi-head attention). `causal`
    masks key positions after the query's position (queries are the last
    `q_len` positions of the `kv_len` keys). `scale` defaults to
    `1 / sqrt(head_dim)`.

    Scratch: the kernel keeps the running maximum and sum of every query row in
    f32: `batch * q_heads * q_len * 8` bytes.

    ```mlir
    %o = memplan.attention %q, %k, %v {causal}
           : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>,
             tensor<1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
    %t = memplan.attention %q, %k, %v {causal, token_major}
           : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>,
             tensor<1x12x1024x64xf16> -> tensor<1x1024x12x64xf16>
    ```
  }];
  let arguments = (ins MemPlan_FloatTensor:$query, MemPlan_FloatTensor:$key,
                       MemPlan_FloatTensor:$value, UnitAttr:$causal,
                       OptionalAttr<F64Attr>:$scale, UnitAttr:$token_major);
  let results = (outs MemPlan_FloatTensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value attr-dict `:` type($query) `,` type($key) `,`
    type($value) `->` type($result)
  }];
  let hasVerifier = 1;
}

def MemPlan_KVCacheUpdateOp : MemPlan_Op<"kv_cache_update",
    [AliasingBuffers, AllTypesMatch<["cache", "result"]>, ResultOfOperandType]> {
  let summary = "Write new keys or values into a persistent KV cache";
  let description = [{
    Writes `update : [batch, kv_heads, new_len, head_dim]` into
    `cache : [batch, kv_heads, max_len, head_dim]` at sequence positions
    `[position, position + new_len)` and returns the cache. The write happens
    in the cache's own memory (usually a function argument that outlives the
    step): the result is a view of `cache`, never a new buffer. `position` is
    a runtime index; writing past `max_len` is an error at run time.

    ```mlir
    %k2 = memplan.kv_cache_update %kcache, %k, %pos
            : tensor<1x32x4096x128xf16>, tensor<1x32x1x128xf16>
    ```
  }];
  let arguments = (ins MemPlan_FloatTensor:$cache, MemPlan_FloatTensor:$update,
                       Index:$position);
  let results = (outs MemPlan_FloatTensor:$result);
  let assemblyFormat = [{
    $cache `,` $update `,` $position attr-dict `:` type($cache) `,` type($update)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Generic op
//===----------------------------------------------------------------------===//

def MemPlan_GenericOp : MemPlan_Op<"op", [
    DeclareOpInterfaceMethods<MemPlan_BufferPlanningOpInterface,
                              ["getScratchBytes", "getAliasedOperand",
                               "writesAliasedOperand",
                               "isScratchLibraryWorkspace"]>]> {
  let summary = "Any other op: only its operand and result sizes matter";
  let description = [{
    Stands for an op memplan has no dedicated op for (a backward op, an
    optimizer step, a custom kernel): `name` says what it is, operands and
    results may have any types, and every result gets a fresh buffer. An
    optional `scratch` attribute gives the bytes of temporary memory it
    needs while it runs; `library_workspace` says that this scratch is a math
    library's workspace (the GEMMs of a `matmul_backward`), reported on its
    own line like a matmul's `workspace_bytes`. An optional `aliases`
    attribute, one entry per
    result, says that a result is written into an operand's memory (its
    index) instead of a fresh buffer (-1): an optimizer step updating weights
    and states in place, a cache written in place. With `views` (a unit
    attribute) those results are views that only read the operand, as a
    reshape is (memplan-gen's `tp_input`, the identity that enters a
    tensor-parallel region): the operand stays readable after the op.

    Two optional attributes describe what a run costs, for cost models;
    planning ignores them. `flops` gives the arithmetic operations one run
    performs, where its producer knows them (a backward GEMM: 2·M·N·K per
    gradient it computes). `comm` marks an op that communicates with other
    GPUs: its process group, the GPUs in it and the bytes this GPU sends
    (`#memplan.comm<data, ranks = 8, sent_bytes = 52428800>`).

    ```mlir
    %gx, %gw = memplan.op "matmul_backward"(%x, %w, %gy)
                 {scratch = 4096 : i64, library_workspace}
                 : (tensor<8x16xf32>, tensor<16x4xf32>, tensor<8x4xf32>)
                 -> (tensor<8x16xf32>, tensor<16x4xf32>)
    %w2, %m2 = memplan.op "adam"(%w, %g, %m) {aliases = array<i64: 0, 2>}
                 : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
                 -> (tensor<16xf32>, tensor<16xf32>)
    %r = memplan.op "all_reduce"(%g) {aliases = array<i64: 0>,
                 comm = #memplan.comm<tensor, ranks = 2, sent_bytes = 64>}
                 : (tensor<16xf32>) -> tensor<16xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<AnyType>:$inputs,
                       OptionalAttr<MemPlan_ByteCount>:$scratch,
                       UnitAttr:$library_workspace,
                       OptionalAttr<DenseI64ArrayAttr>:$aliases,
                       UnitAttr:$views,
                       OptionalAttr<MemPlan_FlopCount>:$flops,
                       OptionalAttr<MemPlan_CommunicationAttr>:$comm);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $name `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
}

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANOPS_TD
