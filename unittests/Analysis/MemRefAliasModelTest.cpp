//===- MemRefAliasModelTest.cpp - Memref aliasing, escape, lifetimes ------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/MemRefAliasModel.h"

#include "memplan/Analysis/MemRefByteSize.h"
#include "memplan/Analysis/ProgramOrder.h"
#include "memplan/Analysis/RegionExecution.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferViewFlowOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/BufferViewFlowOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace memplan;

namespace {

class MemRefAliasModelTest : public ::testing::Test {
protected:
  MemRefAliasModelTest() {
    DialectRegistry registry;
    registry.insert<arith::ArithDialect, bufferization::BufferizationDialect,
                    cf::ControlFlowDialect, func::FuncDialect,
                    linalg::LinalgDialect, memref::MemRefDialect,
                    scf::SCFDialect>();
    arith::registerBufferViewFlowOpInterfaceExternalModels(registry);
    memref::registerBufferViewFlowOpInterfaceExternalModels(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `text` and analyses the function named `name`.
  const MemRefAliasModel &analyse(StringRef text, StringRef name = "f") {
    module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    auto function = module->lookupSymbol<func::FuncOp>(name);
    calls = std::make_unique<CallCaptureAnalysis>();
    model = std::make_unique<MemRefAliasModel>(function, *calls);
    return *model;
  }

  /// The buffer whose alloc carries `{name = "<name>"}`.
  const AllocBuffer &buffer(StringRef name) {
    for (const AllocBuffer &buffer : model->getBuffers()) {
      memref::AllocOp alloc = buffer.alloc;
      if (auto attr = alloc->getAttrOfType<StringAttr>("name");
          attr && attr.getValue() == name)
        return buffer;
    }
    ADD_FAILURE() << "no buffer named " << name.str();
    return model->getBuffers().front();
  }

  int64_t position(StringRef name) {
    Operation *found = nullptr;
    module->walk([&](Operation *op) {
      if (auto attr = op->getAttrOfType<StringAttr>("at");
          attr && attr.getValue() == name)
        found = op;
    });
    EXPECT_TRUE(found) << name.str();
    return model->getOrder().begin(found);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<CallCaptureAnalysis> calls;
  std::unique_ptr<MemRefAliasModel> model;
};

TEST_F(MemRefAliasModelTest, LifetimeEndsAtTheLastUseOfAnyAlias) {
  analyse(R"mlir(
    func.func @f(%x: memref<16xf32>, %c: i1) {
      %a = memref.alloc() {name = "a"} : memref<16xf32>
      %s = memref.subview %a[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
      %b = memref.alloc() {name = "b"} : memref<16xf32>
      %p = arith.select %c, %a, %b : memref<16xf32>
      memref.copy %x, %b {at = "copy"} : memref<16xf32> to memref<16xf32>
      memref.copy %p, %x {at = "last"} : memref<16xf32> to memref<16xf32>
      memref.dealloc %a : memref<16xf32>
      memref.dealloc %b : memref<16xf32>
      return
    })mlir");
  const AllocBuffer &a = buffer("a");
  const AllocBuffer &b = buffer("b");
  EXPECT_TRUE(a.isPackable()) << a.rejection;
  EXPECT_TRUE(b.isPackable()) << b.rejection;
  // Both live through the use of the select, not to their deallocs.
  EXPECT_EQ(a.end, position("last") + 1);
  EXPECT_EQ(b.end, position("last") + 1);
  EXPECT_EQ(a.deallocs.size(), 1u);
  EXPECT_EQ(b.deallocs.size(), 1u);
  EXPECT_EQ(a.bytes, 64u);
}

TEST_F(MemRefAliasModelTest, UsesInALoopLastForTheWholeLoop) {
  analyse(R"mlir(
    func.func @f(%x: memref<16xf32>, %n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %outer = memref.alloc() {name = "outer"} : memref<16xf32>
      scf.for %i = %c0 to %n step %c1 {
        memref.copy %x, %outer {at = "early"} : memref<16xf32> to memref<16xf32>
        %inner = memref.alloc() {name = "inner"} : memref<16xf32>
        memref.copy %outer, %inner {at = "inner_use"} : memref<16xf32> to memref<16xf32>
      } {at = "loop"}
      return
    })mlir");
  const ProgramOrder &order = model->getOrder();
  Operation *loop = nullptr;
  module->walk([&](scf::ForOp op) { loop = op; });
  const AllocBuffer &outer = buffer("outer");
  const AllocBuffer &inner = buffer("inner");
  EXPECT_EQ(outer.end, order.end(loop));
  // The inner buffer dies within its iteration: its own uses count.
  EXPECT_TRUE(inner.isPackable()) << inner.rejection;
  EXPECT_EQ(inner.end, position("inner_use") + 1);
  EXPECT_LT(inner.end, order.end(loop));
}

TEST_F(MemRefAliasModelTest, BuffersThatCrossIterationsAreNotPackable) {
  analyse(R"mlir(
    func.func @f(%x: memref<16xf32>, %n: index) -> memref<16xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %x) -> memref<16xf32> {
        %next = memref.alloc() {name = "next"} : memref<16xf32>
        memref.copy %cur, %next : memref<16xf32> to memref<16xf32>
        scf.yield %next : memref<16xf32>
      }
      return %r : memref<16xf32>
    })mlir");
  const AllocBuffer &next = buffer("next");
  EXPECT_FALSE(next.isPackable());
  EXPECT_EQ(next.rejection,
            "it lives on after the iteration of 'scf.for' that allocates it");
  EXPECT_TRUE(isa<scf::ForOp>(next.culprit));
}

TEST_F(MemRefAliasModelTest, EscapesNameTheOp) {
  analyse(R"mlir(
    func.func private @keep(memref<16xf32>)
    func.func private @reads(%m: memref<16xf32>) -> f32 {
      %c0 = arith.constant 0 : index
      %v = memref.load %m[%c0] : memref<16xf32>
      return %v : f32
    }
    func.func @f(%box: memref<memref<16xf32>>) -> memref<16xf32> {
      %pointer = memref.alloc() {name = "pointer"} : memref<16xf32>
      %p = memref.extract_aligned_pointer_as_index %pointer : memref<16xf32> -> index
      %tensor = memref.alloc() {name = "tensor"} : memref<16xf32>
      %t = bufferization.to_tensor %tensor : memref<16xf32> to tensor<16xf32>
      %stored = memref.alloc() {name = "stored"} : memref<16xf32>
      memref.store %stored, %box[] : memref<memref<16xf32>>
      %external = memref.alloc() {name = "external"} : memref<16xf32>
      func.call @keep(%external) : (memref<16xf32>) -> ()
      %read = memref.alloc() {name = "read"} : memref<16xf32>
      %v = func.call @reads(%read) : (memref<16xf32>) -> f32
      %returned = memref.alloc() {name = "returned"} : memref<16xf32>
      return %returned : memref<16xf32>
    })mlir");
  EXPECT_EQ(buffer("pointer").rejection,
            "it is used by 'memref.extract_aligned_pointer_as_index', which "
            "neither reads nor writes it (it may keep or expose it)");
  EXPECT_TRUE(
      isa<memref::ExtractAlignedPointerAsIndexOp>(buffer("pointer").culprit));
  EXPECT_EQ(buffer("tensor").rejection,
            "'bufferization.to_tensor' derives a value of type "
            "'tensor<16xf32>' from it");
  EXPECT_FALSE(buffer("stored").isPackable());
  EXPECT_EQ(buffer("external").rejection,
            "it is passed to @keep, an external function, which may keep it");
  EXPECT_TRUE(buffer("read").isPackable()) << buffer("read").rejection;
  const AllocBuffer &returned = buffer("returned");
  EXPECT_EQ(returned.rejection, "it is returned from the function");
  // A returned buffer lives to the end of the function.
  EXPECT_EQ(returned.end, model->getOrder().size());
}

TEST_F(MemRefAliasModelTest, ADeallocOfASelectMayFreeEither) {
  analyse(R"mlir(
    func.func @f(%x: memref<16xf32>, %c: i1) {
      %a = memref.alloc() {name = "a"} : memref<16xf32>
      %p = arith.select %c, %a, %x : memref<16xf32>
      memref.dealloc %p : memref<16xf32>
      return
    })mlir");
  EXPECT_EQ(buffer("a").rejection,
            "a dealloc may free this buffer or another one");
}

TEST_F(MemRefAliasModelTest, ParallelLoopsAndUnstructuredControlFlow) {
  analyse(R"mlir(
    func.func @f(%n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.parallel (%i) = (%c0) to (%n) step (%c1) {
        %p = memref.alloc() {name = "p"} : memref<16xf32>
        scf.reduce
      }
      return
    })mlir");
  EXPECT_EQ(buffer("p").rejection,
            "it is allocated in the body of 'scf.parallel', whose iterations "
            "may run at the same time and whose number of iterations is not "
            "a compile-time constant");

  // Static bounds: packable, once per iteration (3 x 2), inside a
  // sequential loop of the body too; nested parallel loops: not packable,
  // but counted once per iteration of both.
  analyse(R"mlir(
    func.func @f(%n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.forall (%i, %j) = (0, 1) to (3, 5) step (1, 2) {
        %p = memref.alloc() {name = "p"} : memref<16xf32>
        scf.for %k = %c0 to %n step %c1 {
          %q = memref.alloc() {name = "q"} : memref<16xf32>
          memref.dealloc %q : memref<16xf32>
        }
        scf.forall (%l) in (4) {
          %r = memref.alloc() {name = "r"} : memref<16xf32>
          memref.dealloc %r : memref<16xf32>
        }
        memref.dealloc %p : memref<16xf32>
      }
      return
    })mlir");
  for (const char *name : {"p", "q"}) {
    EXPECT_TRUE(buffer(name).isPackable()) << name;
    EXPECT_EQ(buffer(name).iterations, 6u) << name;
    ASSERT_NE(buffer(name).concurrentLoop, nullptr) << name;
    EXPECT_EQ(buffer(name).concurrentLoop->getName().getStringRef(),
              "scf.forall");
  }
  EXPECT_EQ(buffer("r").rejection,
            "it is allocated in the bodies of two loops whose iterations may "
            "run at the same time ('scf.forall' inside 'scf.forall')");
  EXPECT_EQ(buffer("r").iterations, 24u);

  // A copy out of an iteration's buffer is no alias: both stay packable.
  analyse(R"mlir(
    func.func @f(%x: memref<16xf32>) {
      %keep = memref.alloc() {name = "keep"} : memref<16xf32>
      scf.forall (%i) in (4) {
        %p = memref.alloc() {name = "p"} : memref<16xf32>
        memref.copy %p, %keep : memref<16xf32> to memref<16xf32>
        memref.dealloc %p : memref<16xf32>
      }
      memref.dealloc %keep : memref<16xf32>
      return
    })mlir");
  EXPECT_TRUE(buffer("p").isPackable());
  EXPECT_TRUE(buffer("keep").isPackable());

  analyse(R"mlir(
    func.func @f(%c: i1) {
      %a = memref.alloc() {name = "a"} : memref<16xf32>
      cf.cond_br %c, ^b, ^b
    ^b:
      return
    })mlir");
}

TEST_F(MemRefAliasModelTest, SizesAreTheLoweringsAndConstantDimsAreStatic) {
  analyse(R"mlir(
    func.func @f() {
      %c3 = arith.constant 3 : index
      %i1 = memref.alloc() {name = "i1"} : memref<1024xi1>
      %i4 = memref.alloc() {name = "i4"} : memref<10xi4>
      %vec = memref.alloc() {name = "vec"} : memref<2xvector<3xf32>>
      %dyn = memref.alloc(%c3) {name = "dyn"} : memref<?x4xf64>
      %idx = memref.alloc() {name = "idx"} : memref<3xindex>
      return
    })mlir");
  EXPECT_EQ(buffer("i1").bytes, 1024u);
  EXPECT_EQ(buffer("i4").bytes, 10u);
  EXPECT_EQ(buffer("vec").bytes, 32u);
  EXPECT_EQ(buffer("vec").alignment, 16u);
  EXPECT_EQ(buffer("dyn").bytes, 96u);
  EXPECT_TRUE(buffer("dyn").isPackable()) << buffer("dyn").rejection;
  EXPECT_EQ(buffer("idx").bytes, 24u);
  EXPECT_EQ(buffer("idx").alignment, 8u);
}

TEST(RegionExecutionTest, ClassifiesUpstreamRegionOps) {
  MLIRContext context;
  context.loadDialect<arith::ArithDialect, func::FuncDialect,
                      linalg::LinalgDialect, memref::MemRefDialect,
                      scf::SCFDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @f(%n: index, %c: i1, %m: memref<4xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 { }
      scf.parallel (%i) = (%c0) to (%n) step (%c1) { scf.reduce }
      scf.forall (%i) in (%n) { }
      scf.if %c { }
      scf.execute_region { scf.yield }
      linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%m : memref<4xf32>) {
      ^bb0(%o: f32):
        linalg.yield %o : f32
      }
      return
    })mlir",
                                                             &context);
  ASSERT_TRUE(module);
  SmallVector<std::pair<StringRef, RegionExecution>> seen;
  module->walk([&](Operation *op) {
    if (op->getNumRegions() && !isa<ModuleOp, func::FuncOp>(op) &&
        !isa<scf::InParallelOp>(op))
      seen.emplace_back(op->getName().getStringRef(), getRegionExecution(op));
  });
  std::pair<StringRef, RegionExecution> expected[] = {
      {"scf.for", RegionExecution::Repeated},
      {"scf.parallel", RegionExecution::Concurrent},
      {"scf.forall", RegionExecution::Concurrent},
      {"scf.if", RegionExecution::Once},
      {"scf.execute_region", RegionExecution::Once},
      {"linalg.generic", RegionExecution::Repeated},
  };
  ASSERT_EQ(seen.size(), std::size(expected));
  for (auto [got, want] : llvm::zip(seen, expected)) {
    EXPECT_EQ(got.first, want.first);
    EXPECT_EQ(got.second, want.second) << got.first.str();
  }
}

TEST(ProgramOrderTest, SpansCoverNestedOps) {
  MLIRContext context;
  context
      .loadDialect<arith::ArithDialect, func::FuncDialect, scf::SCFDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @f(%c: i1) {
      %a = arith.constant 0 : index
      scf.if %c {
        %b = arith.constant 1 : index
      } else {
        %d = arith.constant 2 : index
      }
      return
    })mlir",
                                                             &context);
  ASSERT_TRUE(module);
  auto function = *module->getOps<func::FuncOp>().begin();
  ProgramOrder order(function.getBody());
  Operation *branch = nullptr;
  function.walk([&](scf::IfOp op) { branch = op; });
  // constant, if, constant, yield, constant, yield, return
  EXPECT_EQ(order.size(), 7);
  EXPECT_EQ(order.begin(branch), 1);
  EXPECT_EQ(order.end(branch), 6);
  Operation *ret = function.getBody().front().getTerminator();
  EXPECT_EQ(order.begin(ret), 6);
  EXPECT_EQ(order.end(ret), 7);
}

} // namespace
