//===- BufferizedProgramGenerator.cpp - Random bufferized programs --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "BufferizedProgramGenerator.h"

#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

using namespace memplan;

namespace {

enum class Elem { F32, F64, I8, I1, I4, Index, Vec3 };

const char *typeName(Elem elem) {
  switch (elem) {
  case Elem::F32:
    return "f32";
  case Elem::F64:
    return "f64";
  case Elem::I8:
    return "i8";
  case Elem::I1:
    return "i1";
  case Elem::I4:
    return "i4";
  case Elem::Index:
    return "index";
  case Elem::Vec3:
    return "vector<3xf32>";
  }
  return "f32";
}

/// A 1-D memref value through which elements [0, count) are accessed.
struct Handle {
  unsigned id = 0;
  std::string value, type;
  int64_t count = 0;
  bool identity = true; ///< no layout: may be cast, passed to @sum_*
};

struct Buffer {
  Elem elem = Elem::F32;
  int space = 0;
  std::string allocValue, allocType;
  Handle access;
  std::vector<Handle> extraReads;     ///< views and selects, read when retired
  std::vector<std::string> addresses; ///< escaped addresses, read when retired
  bool mayFree = true; ///< false for space 1 and loop-carried results
};

class Generator {
public:
  explicit Generator(uint64_t seed)
      : rng(seed), laterRng(seed ^ 0x9e3779b97f4a7c15ULL) {}

  std::string run(ProgramFeatures &features) {
    this->features = &features;
    // A quarter of the programs, without deallocs, are written for
    // upstream's deallocation pipeline (memplan-difftest runs it before
    // packing, as the recommended recipe does): no buffer of memory space 1,
    // which it would free and the LLVM lowering cannot.
    int style = pick(4);
    deallocMode = style == 3 ? 0 : style;
    spaceOneAllowed = style != 3;
    std::vector<std::string> kernel = writeKernel();
    std::ostringstream os;
    os << "// memplan-difftest program; dealloc mode " << deallocMode << "\n";
    os << "module {\n";
    os << readRawFunction();
    for (const std::string &helper : helpers)
      os << helper;
    for (const std::string &line : kernel)
      os << line << "\n";
    os << mainFunction(/*freeBuffers=*/deallocMode != 0);
    os << "}\n";
    return os.str();
  }

private:
  //===--------------------------------------------------------------------===//
  // Randomness and text
  //===--------------------------------------------------------------------===//

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
  bool chance(int percent) { return pick(100) < percent; }
  /// Choices added to the generator after its long runs were recorded come
  /// from a stream of their own, so that every seed's program keeps the
  /// shape it had (with those additions).
  bool laterChance(int percent) {
    return std::uniform_int_distribution<int>(0, 99)(laterRng) < percent;
  }

  std::string fresh(const std::string &prefix) {
    return "%" + prefix + std::to_string(counter++);
  }
  void emit(const std::string &line) {
    lines->push_back(std::string(indent, ' ') + line);
  }

  /// Emits a static alloc, or now and then writes it at the start of the
  /// current block instead, as IREE and upstream's hoisting passes leave
  /// allocations: away from the first use, which is where the packer's
  /// lifetimes begin.
  void emitAlloc(const std::string &line) {
    if (!laterChance(25)) {
      emit(line);
      return;
    }
    // The block's opening line is the last one indented less than its ops.
    // Nothing goes above the kernel's first two buffers, which the
    // corrupted packing looks for as its first two allocs.
    size_t at = lines->size();
    while (at > 0 && (*lines)[at - 1].find_first_not_of(' ') >= size_t(indent))
      --at;
    if (lines == kernelLines)
      at = std::max(at, hoistFloor);
    lines->insert(lines->begin() + at, std::string(indent, ' ') + line);
    ++features->hoistedAllocs;
  }

  std::string constIndex(int64_t value) {
    std::string name = fresh("ci");
    emit(name + " = arith.constant " + std::to_string(value) + " : index");
    return name;
  }
  std::string constF32(double value) {
    std::ostringstream text;
    text.precision(6);
    text << std::fixed << value;
    std::string name = fresh("f");
    emit(name + " = arith.constant " + text.str() + " : f32");
    return name;
  }
  double salt() { return 0.25 + pick(37) * 0.125; }

  std::string memrefType(const std::string &shape, Elem elem, int space,
                         const std::string &layout = "") {
    std::string type = "memref<" + shape + "x" + typeName(elem);
    if (!layout.empty())
      type += ", " + layout;
    if (space)
      type += ", " + std::to_string(space);
    return type + ">";
  }

  //===--------------------------------------------------------------------===//
  // Element conversions
  //===--------------------------------------------------------------------===//

  std::string fromF32(const std::string &value, Elem elem) {
    auto reduce = [&](double modulus) {
      std::string m = constF32(modulus), r = fresh("m");
      emit(r + " = arith.remf " + value + ", " + m + " : f32");
      return r;
    };
    std::string result = fresh("e");
    switch (elem) {
    case Elem::F32:
      return value;
    case Elem::F64:
      emit(result + " = arith.extf " + value + " : f32 to f64");
      return result;
    case Elem::I8: {
      std::string m = reduce(50);
      emit(result + " = arith.fptosi " + m + " : f32 to i8");
      return result;
    }
    case Elem::I1: {
      std::string m = reduce(3), one = constF32(1);
      emit(result + " = arith.cmpf ogt, " + m + ", " + one + " : f32");
      return result;
    }
    case Elem::I4: {
      std::string m = reduce(7);
      emit(result + " = arith.fptosi " + m + " : f32 to i4");
      return result;
    }
    case Elem::Index: {
      std::string m = reduce(1000), wide = fresh("w");
      emit(wide + " = arith.fptosi " + m + " : f32 to i64");
      emit(result + " = arith.index_cast " + wide + " : i64 to index");
      return result;
    }
    case Elem::Vec3: {
      std::string broadcast = fresh("v"), lanes = fresh("l");
      emit(broadcast + " = vector.broadcast " + value +
           " : f32 to vector<3xf32>");
      emit(lanes + " = arith.constant dense<[0.0, 0.5, 1.25]> : "
                   "vector<3xf32>");
      emit(result + " = arith.addf " + broadcast + ", " + lanes +
           " : vector<3xf32>");
      return result;
    }
    }
    return value;
  }

  std::string toF32(const std::string &value, Elem elem) {
    std::string result = fresh("x");
    switch (elem) {
    case Elem::F32:
      return value;
    case Elem::F64:
      emit(result + " = arith.truncf " + value + " : f64 to f32");
      return result;
    case Elem::I8:
      emit(result + " = arith.sitofp " + value + " : i8 to f32");
      return result;
    case Elem::I1:
      emit(result + " = arith.uitofp " + value + " : i1 to f32");
      return result;
    case Elem::I4:
      emit(result + " = arith.sitofp " + value + " : i4 to f32");
      return result;
    case Elem::Index: {
      std::string wide = fresh("w");
      emit(wide + " = arith.index_cast " + value + " : index to i64");
      emit(result + " = arith.sitofp " + wide + " : i64 to f32");
      return result;
    }
    case Elem::Vec3: {
      std::string a = fresh("a"), b = fresh("a");
      emit(a + " = vector.extract " + value + "[0] : f32 from vector<3xf32>");
      emit(b + " = vector.extract " + value + "[2] : f32 from vector<3xf32>");
      emit(result + " = arith.addf " + a + ", " + b + " : f32");
      return result;
    }
    }
    return value;
  }

  //===--------------------------------------------------------------------===//
  // Accesses
  //===--------------------------------------------------------------------===//

  /// handle[i] = i * a + b (+ source[i mod source.count]).
  void write(const Handle &handle, Elem elem, const Handle *source,
             Elem sourceElem) {
    std::string count = constIndex(handle.count);
    // Each write adds an offset of its own: no two buffers (in particular
    // the first two, which the corrupted packing overlaps) hold the same
    // values.
    std::string a = constF32(salt()),
                b = constF32(salt() * 3 + 0.03125 * ++writes);
    std::string modulus = source ? constIndex(source->count) : "";
    std::string i = fresh("i");
    emit("scf.for " + i + " = %c0 to " + count + " step %c1 {");
    indent += 2;
    std::string wide = fresh("w"), fi = fresh("fi"), ax = fresh("s"),
                value = fresh("s");
    emit(wide + " = arith.index_cast " + i + " : index to i64");
    emit(fi + " = arith.sitofp " + wide + " : i64 to f32");
    emit(ax + " = arith.mulf " + fi + ", " + a + " : f32");
    emit(value + " = arith.addf " + ax + ", " + b + " : f32");
    if (source) {
      std::string j = fresh("j"), loaded = fresh("ld"), sum = fresh("s");
      emit(j + " = arith.remui " + i + ", " + modulus + " : index");
      emit(loaded + " = memref.load " + source->value + "[" + j +
           "] : " + source->type);
      std::string asF32 = toF32(loaded, sourceElem);
      emit(sum + " = arith.addf " + value + ", " + asF32 + " : f32");
      value = sum;
    }
    std::string element = fromF32(value, elem);
    emit("memref.store " + element + ", " + handle.value + "[" + i +
         "] : " + handle.type);
    indent -= 2;
    emit("}");
  }

  /// The weighted sum of handle[0, count), as f32.
  std::string read(const Handle &handle, Elem elem) {
    std::string count = constIndex(handle.count), zero = constF32(0),
                step = constF32(0.015625), one = constF32(1);
    std::string sum = fresh("sum"), i = fresh("i"), acc = fresh("acc");
    emit(sum + " = scf.for " + i + " = %c0 to " + count +
         " step %c1 iter_args(" + acc + " = " + zero + ") -> (f32) {");
    indent += 2;
    std::string loaded = fresh("ld");
    emit(loaded + " = memref.load " + handle.value + "[" + i +
         "] : " + handle.type);
    std::string value = toF32(loaded, elem);
    std::string wide = fresh("w"), fi = fresh("fi"), scaled = fresh("s"),
                weight = fresh("s"), weighted = fresh("s"), next = fresh("s");
    emit(wide + " = arith.index_cast " + i + " : index to i64");
    emit(fi + " = arith.sitofp " + wide + " : i64 to f32");
    emit(scaled + " = arith.mulf " + fi + ", " + step + " : f32");
    emit(weight + " = arith.addf " + scaled + ", " + one + " : f32");
    emit(weighted + " = arith.mulf " + value + ", " + weight + " : f32");
    emit(next + " = arith.addf " + acc + ", " + weighted + " : f32");
    emit("scf.yield " + next + " : f32");
    indent -= 2;
    emit("}");
    return sum;
  }

  /// Adds `value` to a slot of %out; in a parallel loop, `iteration` (the
  /// induction variable, under 4) picks one slot per iteration, so no two
  /// iterations write one slot.
  void addToOut(const std::string &value, const std::string &iteration = "") {
    std::string slot = constIndex(nextSlot++ % 60), old = fresh("o"),
                updated = fresh("o");
    if (!iteration.empty()) {
      std::string sum = fresh("slot");
      emit(sum + " = arith.addi " + slot + ", " + iteration + " : index");
      slot = sum;
    }
    emit(old + " = memref.load %out[" + slot + "] : memref<64xf32>");
    emit(updated + " = arith.addf " + old + ", " + value + " : f32");
    emit("memref.store " + updated + ", %out[" + slot + "] : memref<64xf32>");
  }

  //===--------------------------------------------------------------------===//
  // Buffers
  //===--------------------------------------------------------------------===//

  Elem randomElem() {
    if (chance(55))
      return Elem::F32;
    Elem others[] = {Elem::F64, Elem::I8,    Elem::I1,
                     Elem::I4,  Elem::Index, Elem::Vec3};
    return others[pick(6)];
  }

  int64_t randomCount() {
    int64_t counts[] = {4, 8, 12, 16, 24, 32, 64};
    return counts[pick(7)];
  }

  /// Allocates a buffer; `plain` asks for a static 1-D one of space 0.
  Buffer allocate(Elem elem, int64_t count, bool plain, bool nested) {
    Buffer buffer;
    buffer.elem = elem;
    buffer.space =
        (spaceOneAllowed && !plain && elem == Elem::F32 && chance(15)) ? 1 : 0;
    buffer.mayFree = buffer.space == 0;
    ++features->buffers;
    features->nested += nested;
    features->spaceOne += buffer.space;
    features->subByte += elem == Elem::I1 || elem == Elem::I4;
    std::string alignment;
    int choice = pick(4);
    if (choice)
      alignment =
          " {alignment = " + std::to_string(8 << (2 * choice)) + " : i64}";
    buffer.allocValue = fresh("b");
    int shape = plain ? 9 : pick(10);
    buffer.access.id = handles++;
    buffer.access.count = count;
    if (shape == 0 && count % 4 == 0) {
      // 2-D, accessed through collapse_shape.
      buffer.allocType =
          memrefType("4x" + std::to_string(count / 4), elem, buffer.space);
      emitAlloc(buffer.allocValue + " = memref.alloc()" + alignment + " : " +
                buffer.allocType);
      buffer.access.type =
          memrefType(std::to_string(count), elem, buffer.space);
      buffer.access.value = fresh("h");
      emit(buffer.access.value + " = memref.collapse_shape " +
           buffer.allocValue + " [[0, 1]] : " + buffer.allocType + " into " +
           buffer.access.type);
      ++features->views;
    } else if (shape == 1) {
      // A `?` size given by a constant.
      std::string size = constIndex(count);
      buffer.allocType = memrefType("?", elem, buffer.space);
      emit(buffer.allocValue + " = memref.alloc(" + size + ")" + alignment +
           " : " + buffer.allocType);
      buffer.access.type = buffer.allocType;
      buffer.access.value = buffer.allocValue;
    } else if ((elem == Elem::F32 || elem == Elem::F64) && laterChance(15)) {
      // Bytes viewed as typed elements, as upstream's and IREE's buffers
      // are. An alloc without an attribute is only as aligned as its own
      // elements (MemRefOps.td: "compatible with the type"), so the i8
      // buffer asks for the 8 bytes of an f64 at least.
      int64_t bytes = count * (elem == Elem::F64 ? 8 : 4);
      if (alignment.empty())
        alignment = " {alignment = 8 : i64}";
      buffer.allocType =
          memrefType(std::to_string(bytes), Elem::I8, buffer.space);
      emitAlloc(buffer.allocValue + " = memref.alloc()" + alignment + " : " +
                buffer.allocType);
      buffer.access.type =
          memrefType(std::to_string(count), elem, buffer.space);
      buffer.access.value = fresh("h");
      emit(buffer.access.value + " = memref.view " + buffer.allocValue + "[" +
           constIndex(0) + "][] : " + buffer.allocType + " to " +
           buffer.access.type);
      ++features->views;
      ++features->typedByteViews;
    } else {
      buffer.allocType = memrefType(std::to_string(count), elem, buffer.space);
      emitAlloc(buffer.allocValue + " = memref.alloc()" + alignment + " : " +
                buffer.allocType);
      buffer.access.type = buffer.allocType;
      buffer.access.value = buffer.allocValue;
      // The alignment the allocation gives, assumed as frontends do
      // (IREE after its buffer bindings): the alloc's attribute, or the 16
      // bytes malloc returns. Packed with alignment=1, the buffer must keep
      // it.
      if (laterChance(20)) {
        std::string assumed = choice ? std::to_string(8 << (2 * choice)) : "16";
        buffer.access.value = fresh("h");
        emit(buffer.access.value + " = memref.assume_alignment " +
             buffer.allocValue + ", " + assumed + " : " + buffer.allocType);
        ++features->assumedAlignments;
      }
    }
    return buffer;
  }

  /// A live buffer to read from, or the input.
  std::pair<Handle, Elem> randomSource() {
    if (!live.empty() && chance(60)) {
      const Buffer &buffer = live[pick(live.size())];
      return {buffer.access, buffer.elem};
    }
    return {input, Elem::F32};
  }

  void newBuffer(bool plain = false) {
    Buffer buffer = allocate(plain ? Elem::F32 : randomElem(),
                             plain ? 16 : randomCount(), plain, false);
    auto [source, sourceElem] = randomSource();
    write(buffer.access, buffer.elem, &source, sourceElem);
    live.push_back(std::move(buffer));
  }

  /// A buffer taken out of `live` to be read for the last time, and the
  /// views of it not read yet (a select's view is read once, with the first
  /// of its two buffers).
  struct Retiring {
    Buffer buffer;
    std::vector<Handle> views;
  };

  Retiring takeForRetirement(size_t index) {
    Retiring retiring{std::move(live[index]), {}};
    live.erase(live.begin() + index);
    for (const Handle &handle : retiring.buffer.extraReads)
      if (consumed.insert(handle.id).second)
        retiring.views.push_back(handle);
    return retiring;
  }

  /// Reads everything a retiring buffer is known by into %out (in a
  /// parallel loop, into the slots of `iteration`).
  void readAll(const Retiring &retiring, const std::string &iteration = "") {
    const Buffer &buffer = retiring.buffer;
    for (const std::string &address : buffer.addresses) {
      std::string element = constIndex(pick(static_cast<int>(
                      std::min<int64_t>(buffer.access.count, 4)))),
                  value = fresh("raw");
      emit(value + " = func.call @read_raw(" + address + ", " + element +
           ") : (index, index) -> f32");
      addToOut(value, iteration);
    }
    addToOut(read(buffer.access, buffer.elem), iteration);
    for (const Handle &handle : retiring.views)
      addToOut(read(handle, buffer.elem), iteration);
  }

  /// Frees a retired buffer here, or at the end, or never (the dealloc
  /// mode).
  void release(const Retiring &retiring) {
    const Buffer &buffer = retiring.buffer;
    if (!buffer.mayFree || deallocMode == 0)
      return;
    std::string dealloc =
        "memref.dealloc " + buffer.allocValue + " : " + buffer.allocType;
    if (deallocMode == 1)
      emit(dealloc);
    else
      deferredDeallocs.push_back(dealloc);
  }

  /// Reads everything a buffer is known by into %out, then frees it (or
  /// leaves that to the end).
  void retire(size_t index) {
    Retiring retiring = takeForRetirement(index);
    readAll(retiring);
    release(retiring);
  }

  /// Sometimes, a live buffer read for the last time at the start of the
  /// region ops about to be written (so that the buffers they allocate
  /// after those reads may take its bytes where the region runs once, and
  /// must not where it repeats); freed after the region op.
  std::optional<Retiring> maybeRetireInRegion() {
    // Only at the top level: a region op nested in a loop runs again.
    if (regionDepth > 0 || live.empty() || !chance(35))
      return std::nullopt;
    ++features->lastUseInRegion;
    return takeForRetirement(pick(live.size()));
  }
  static const Retiring *orNull(const std::optional<Retiring> &retiring) {
    return retiring ? &*retiring : nullptr;
  }

  //===--------------------------------------------------------------------===//
  // Actions
  //===--------------------------------------------------------------------===//

  Buffer *randomLive() {
    return live.empty() ? nullptr : &live[pick(live.size())];
  }

  /// Writes one live buffer from another.
  void combine() {
    Buffer *target = randomLive();
    if (!target)
      return newBuffer();
    auto [source, sourceElem] = randomSource();
    write(target->access, target->elem, &source, sourceElem);
  }

  void view() {
    Buffer *buffer = randomLive();
    if (!buffer)
      return newBuffer();
    Handle handle;
    handle.id = handles++;
    handle.value = fresh("vw");
    const Handle &access = buffer->access;
    bool dynamic = access.type.find('?') != std::string::npos;
    if (!dynamic && access.identity && access.count >= 4 && chance(70)) {
      int64_t offset = pick(static_cast<int>(access.count / 2));
      int64_t size = 1 + pick(static_cast<int>(access.count - offset));
      handle.count = size;
      handle.identity = false;
      handle.type =
          memrefType(std::to_string(size), buffer->elem, buffer->space,
                     "strided<[1], offset: " + std::to_string(offset) + ">");
      if (chance(70))
        emit(handle.value + " = memref.subview " + access.value + "[" +
             std::to_string(offset) + "] [" + std::to_string(size) +
             "] [1] : " + access.type + " to " + handle.type);
      else
        emit(handle.value + " = memref.reinterpret_cast " + access.value +
             " to offset: [" + std::to_string(offset) + "], sizes: [" +
             std::to_string(size) + "], strides: [1] : " + access.type +
             " to " + handle.type);
      if (chance(50))
        write(handle, buffer->elem, &input, Elem::F32);
    } else if (access.identity) {
      handle.count = access.count;
      handle.type = memrefType("?", buffer->elem, buffer->space);
      emit(handle.value + " = memref.cast " + access.value + " : " +
           access.type + " to " + handle.type);
    } else {
      return;
    }
    ++features->views;
    buffer->extraReads.push_back(handle);
  }

  /// %s = select %cond, X, Y: read when the first of X and Y retires.
  void select() {
    Buffer x = allocate(Elem::F32, 16, true, false);
    write(x.access, x.elem, &input, Elem::F32);
    live.push_back(x);
    Buffer y = allocate(Elem::F32, 16, true, false);
    auto [source, sourceElem] = randomSource();
    write(y.access, y.elem, &source, sourceElem);
    Handle handle;
    handle.id = handles++;
    handle.value = fresh("sel");
    handle.type = x.access.type;
    handle.count = 16;
    emit(handle.value + " = arith.select %cond, " + x.access.value + ", " +
         y.access.value + " : " + handle.type);
    live.back().extraReads.push_back(handle);
    y.extraReads.push_back(handle);
    live.push_back(std::move(y));
    ++features->views;
  }

  /// A buffer of a region: written, read into %out, and maybe written back
  /// into `outer`; freed in the region.
  void regionBuffer(Buffer *outer, const std::string &iteration = "",
                    const Retiring *dying = nullptr) {
    if (dying)
      readAll(*dying, iteration);
    Buffer local = allocate(randomElem(), randomCount(), false, true);
    auto [source, sourceElem] = randomSource();
    write(local.access, local.elem, &source, sourceElem);
    // Sometimes a region op nested here, while the local buffer lives.
    if (regionDepth < 2 && !inParallel && chance(25))
      nestedRegionOp();
    addToOut(read(local.access, local.elem), iteration);
    if (outer && outer->space == 0 && chance(60))
      write(outer->access, outer->elem, &local.access, local.elem);
    if (local.mayFree && deallocMode != 0)
      emit("memref.dealloc " + local.allocValue + " : " + local.allocType);
  }

  /// Emits `open`, then what `body` emits one level deeper, then
  /// `terminator` (if any) and the closing brace.
  template <typename Body>
  void region(const std::string &open, Body body,
              const std::string &terminator = "") {
    emit(open);
    indent += 2;
    body();
    if (!terminator.empty())
      emit(terminator);
    indent -= 2;
    emit("}");
  }

  /// Writes a region op with `write(outer, dying)`: `outer` is a live
  /// buffer its regions may update (or none), `dying` one they read for
  /// the last time first (or none), freed after the op.
  template <typename Write> void regionOp(Write write) {
    std::optional<Retiring> dying = maybeRetireInRegion();
    Buffer *outer = randomLive();
    ++regionDepth;
    write(outer, orNull(dying));
    --regionDepth;
    if (dying)
      release(*dying);
  }

  /// A region op (not a parallel loop) inside a region.
  void nestedRegionOp() {
    ++features->nestedRegionOps;
    switch (pick(6)) {
    case 0:
      return branches();
    case 1:
      return forLoop();
    case 2:
      return whileLoop();
    case 3:
      return affineLoop();
    case 4:
      return indexSwitch();
    default:
      return executeRegion();
    }
  }

  void branches() {
    regionOp([&](Buffer *outer, const Retiring *dying) {
      emit("scf.if %cond {");
      indent += 2;
      regionBuffer(outer, "", dying);
      indent -= 2;
      emit("} else {");
      indent += 2;
      regionBuffer(outer, "", dying);
      indent -= 2;
      emit("}");
    });
  }

  void forLoop() {
    // Now and then (in the kernel's body, where the buffer may live on) a
    // buffer first written inside the loop, beside the loop's own buffers:
    // its life begins at the loop (which runs at least once: %n is 2 or 3),
    // and the loop's buffers must not take its bytes.
    std::optional<Buffer> firstWrittenInside;
    if (regionDepth == 0 && !inParallel && laterChance(30)) {
      firstWrittenInside = allocate(Elem::F32, randomCount(), true, false);
      ++features->firstWrittenInLoop;
    }
    regionOp([&](Buffer *outer, const Retiring *dying) {
      std::string i = fresh("i");
      region("scf.for " + i + " = %c0 to %n step %c1 {", [&] {
        if (firstWrittenInside) {
          auto [source, sourceElem] = randomSource();
          write(firstWrittenInside->access, firstWrittenInside->elem, &source,
                sourceElem);
        }
        regionBuffer(outer, "", dying);
        if (chance(50))
          regionBuffer(outer);
      });
    });
    if (firstWrittenInside)
      live.push_back(std::move(*firstWrittenInside));
  }

  void whileLoop() {
    regionOp([&](Buffer *outer, const Retiring *dying) {
      std::string k = fresh("k"), go = fresh("go"), k2 = fresh("k"),
                  next = fresh("k"), result = fresh("wr");
      emit(result + " = scf.while (" + k + " = %c0) : (index) -> index {");
      indent += 2;
      if (chance(50))
        regionBuffer(outer);
      emit(go + " = arith.cmpi slt, " + k + ", %n : index");
      emit("scf.condition(" + go + ") " + k + " : index");
      indent -= 2;
      emit("} do {");
      emit("^bb0(" + k2 + ": index):");
      indent += 2;
      regionBuffer(outer, "", dying);
      emit(next + " = arith.addi " + k2 + ", %c1 : index");
      emit("scf.yield " + next + " : index");
      indent -= 2;
      emit("}");
    });
  }

  /// A loop whose iterations may run at the same time (scf.forall or
  /// scf.parallel, 2 to 4 iterations), with buffers of its own. Iterations
  /// read what is live outside and write only their own buffers and their
  /// own slots of %out.
  void parallelLoop() {
    std::optional<Retiring> dying = maybeRetireInRegion();
    std::string iv = fresh("p");
    std::string count = std::to_string(2 + pick(3));
    bool forall = chance(50);
    std::string open = "scf.forall (" + iv + ") in (" + count + ") {";
    if (!forall) {
      std::string upper = constIndex(std::stoll(count));
      open =
          "scf.parallel (" + iv + ") = (%c0) to (" + upper + ") step (%c1) {";
    }
    // No region op nests in it: two iterations would update one slot of
    // %out at once.
    ++regionDepth;
    bool wasInParallel = std::exchange(inParallel, true);
    region(
        open,
        [&] {
          regionBuffer(nullptr, iv, orNull(dying));
          if (chance(50))
            regionBuffer(nullptr, iv);
        },
        forall ? "" : "scf.reduce");
    inParallel = wasInParallel;
    --regionDepth;
    if (dying)
      release(*dying);
    ++features->parallel;
  }

  /// A new buffer per iteration, carried to the next one.
  void carried() {
    Buffer *outer = randomLive();
    if (!outer || !outer->access.identity ||
        outer->access.type.find('?') != std::string::npos ||
        outer->allocType != outer->access.type)
      return newBuffer();
    std::string type = outer->access.type, i = fresh("i"),
                current = fresh("cur"), result = fresh("carried");
    emit(result + " = scf.for " + i + " = %c0 to %n step %c1 iter_args(" +
         current + " = " + outer->access.value + ") -> (" + type + ") {");
    indent += 2;
    std::string next = fresh("nx");
    emit(next + " = memref.alloc() : " + type);
    ++features->buffers;
    ++features->nested;
    Handle from{handles++, current, type, outer->access.count, true};
    Handle to{handles++, next, type, outer->access.count, true};
    write(to, outer->elem, &from, outer->elem);
    emit("scf.yield " + next + " : " + type);
    indent -= 2;
    emit("}");
    Buffer carriedBuffer;
    carriedBuffer.elem = outer->elem;
    carriedBuffer.space = outer->space;
    carriedBuffer.allocValue = result;
    carriedBuffer.allocType = type;
    carriedBuffer.access = {handles++, result, type, outer->access.count, true};
    carriedBuffer.mayFree = false; // it may be the outer buffer itself
    live.push_back(std::move(carriedBuffer));
  }

  /// `buffer`'s access handle as an argument of type `type` (memref<?x...>)
  /// of a helper function: itself, or a memref.cast of it.
  std::string asHelperArgument(const Buffer &buffer, const std::string &type) {
    if (buffer.access.type == type)
      return buffer.access.value;
    std::string argument = fresh("cast");
    emit(argument + " = memref.cast " + buffer.access.value + " : " +
         buffer.access.type + " to " + type);
    return argument;
  }

  /// Takes the address of a buffer; it is read through when the buffer
  /// retires.
  void escape() {
    Buffer *buffer = randomLive();
    if (!buffer || buffer->space != 0 || buffer->elem != Elem::F32 ||
        !buffer->access.identity)
      return newBuffer();
    std::string address = fresh("addr");
    emit(address + " = memref.extract_aligned_pointer_as_index " +
         buffer->access.value + " : " + buffer->access.type + " -> index");
    buffer->addresses.push_back(address);
    ++features->escapes;
  }

  //===--------------------------------------------------------------------===//
  // Structured ops, as bufferized linalg leaves them
  //===--------------------------------------------------------------------===//

  /// The first `count` elements of a buffer's access handle (or of the
  /// input), as a static 1-D memref: the handle itself when it is one of
  /// that size, otherwise a subview.
  Handle prefix(const Handle &handle, Elem elem, int space, int64_t count) {
    if (handle.count == count && handle.identity &&
        handle.type.find('?') == std::string::npos)
      return handle;
    Handle part;
    part.id = handles++;
    part.value = fresh("pre");
    part.count = count;
    part.identity = false;
    part.type = memrefType(std::to_string(count), elem, space, "strided<[1]>");
    emit(part.value + " = memref.subview " + handle.value + "[0] [" +
         std::to_string(count) + "] [1] : " + handle.type + " to " + part.type);
    return part;
  }

  /// `flat`, a contiguous static 1-D memref of rows x columns elements (a
  /// prefix subview is strided<[1]> at offset 0), as a 2-D expand_shape
  /// view, which has the identity layout.
  Handle expand(const Handle &flat, int64_t rows, int64_t columns, Elem elem,
                int space, const std::string &name) {
    std::string shape = std::to_string(rows) + "x" + std::to_string(columns);
    Handle matrix{handles++, fresh(name), memrefType(shape, elem, space),
                  rows * columns, true};
    emit(matrix.value + " = memref.expand_shape " + flat.value +
         " [[0, 1]] output_shape [" + std::to_string(rows) + ", " +
         std::to_string(columns) + "] : " + flat.type + " into " + matrix.type);
    return matrix;
  }

  /// A live buffer of at least `count` elements whose access handle has an
  /// identity layout (any space, any element type unless `f32Only`; the
  /// target itself included: in place), or none (the caller reads the
  /// input).
  const Buffer *sourceOfAtLeast(int64_t count, bool f32Only = false) {
    std::vector<const Buffer *> candidates;
    for (const Buffer &buffer : live)
      if (buffer.access.identity && buffer.access.count >= count &&
          (!f32Only || buffer.elem == Elem::F32))
        candidates.push_back(&buffer);
    if (!candidates.empty() && chance(70))
      return candidates[pick(candidates.size())];
    return nullptr;
  }

  /// The body of an elementwise linalg.generic: out = index * a + b + in
  /// (+ half the old out when `accumulate`), converted to `outElem`. The
  /// index is the element's row-major number: 2-D over `columns` columns,
  /// or 1-D where `columns` is 0.
  void elementwiseBody(const std::string &in, Elem inElem,
                       const std::string &old, Elem outElem, int64_t columns,
                       bool accumulate) {
    std::string a = constF32(salt()),
                b = constF32(salt() * 3 + 0.03125 * ++writes);
    std::string flat = fresh("idx");
    emit(flat + " = linalg.index 0 : index");
    if (columns) {
      // i * columns + j.
      std::string j = fresh("idx"), width = fresh("cols"),
                  scaled = fresh("idx"), sum = fresh("idx");
      emit(j + " = linalg.index 1 : index");
      emit(width + " = arith.constant " + std::to_string(columns) + " : index");
      emit(scaled + " = arith.muli " + flat + ", " + width + " : index");
      emit(sum + " = arith.addi " + scaled + ", " + j + " : index");
      flat = sum;
    }
    std::string wide = fresh("w"), fi = fresh("fi"), ax = fresh("s"),
                value = fresh("s"), sum = fresh("s");
    emit(wide + " = arith.index_cast " + flat + " : index to i64");
    emit(fi + " = arith.sitofp " + wide + " : i64 to f32");
    emit(ax + " = arith.mulf " + fi + ", " + a + " : f32");
    emit(value + " = arith.addf " + ax + ", " + b + " : f32");
    emit(sum + " = arith.addf " + value + ", " + toF32(in, inElem) + " : f32");
    value = sum;
    if (accumulate) {
      std::string half = constF32(0.5), scaled = fresh("s"), total = fresh("s");
      emit(scaled + " = arith.mulf " + toF32(old, outElem) + ", " + half +
           " : f32");
      emit(total + " = arith.addf " + value + ", " + scaled + " : f32");
      value = total;
    }
    emit("linalg.yield " + fromF32(value, outElem) + " : " + typeName(outElem));
  }

  /// Writes a live buffer with an elementwise linalg.generic that reads
  /// another buffer (or the input), possibly reading its own old contents
  /// too; 1-D, or 2-D through expand_shape views of both.
  void linalgWrite() {
    Buffer *target = randomLive();
    if (!target || !target->access.identity)
      return newBuffer();
    ++features->linalg;
    int64_t count = target->access.count;
    bool rank2 = count % 4 == 0 &&
                 target->access.type.find('?') == std::string::npos &&
                 chance(40);
    const Buffer *sourceBuffer = sourceOfAtLeast(count);
    Handle source = sourceBuffer ? sourceBuffer->access : input;
    Elem sourceElem = sourceBuffer ? sourceBuffer->elem : Elem::F32;
    int sourceSpace = sourceBuffer ? sourceBuffer->space : 0;
    Handle in = prefix(source, sourceElem, sourceSpace, count);
    Handle out = target->access;
    std::string maps = "affine_map<(d0) -> (d0)>";
    std::string iterators = "\"parallel\"";
    int64_t columns = rank2 ? count / 4 : 0;
    if (rank2) {
      in = expand(in, 4, columns, sourceElem, sourceSpace, "ex");
      out = expand(out, 4, columns, target->elem, target->space, "ex");
      maps = "affine_map<(d0, d1) -> (d0, d1)>";
      iterators = "\"parallel\", \"parallel\"";
      ++features->views;
    }
    bool accumulate = chance(40);
    std::string a = fresh("in"), b = fresh("out");
    emit("linalg.generic {indexing_maps = [" + maps + ", " + maps +
         "], iterator_types = [" + iterators + "]} ins(" + in.value + " : " +
         in.type + ") outs(" + out.value + " : " + out.type + ") {");
    emit("^bb0(" + a + ": " + typeName(sourceElem) + ", " + b + ": " +
         typeName(target->elem) + "):");
    indent += 2;
    elementwiseBody(a, sourceElem, b, target->elem, columns, accumulate);
    indent -= 2;
    emit("}");
  }

  /// A new 4x4 f32 buffer C = fill, then C += A x B with linalg.matmul
  /// (a reduction: C is read and written for each k), A and B expand_shape
  /// views (4xK and Kx4) of prefixes of live f32 buffers or of the input.
  void matmul() {
    ++features->linalg;
    int64_t k = pick(2) ? 4 : 2;
    auto operand = [&](int64_t rows, int64_t columns) {
      const Buffer *buffer = sourceOfAtLeast(4 * k, /*f32Only=*/true);
      int space = buffer ? buffer->space : 0;
      Handle flat =
          prefix(buffer ? buffer->access : input, Elem::F32, space, 4 * k);
      ++features->views;
      return expand(flat, rows, columns, Elem::F32, space, "mat");
    };
    Handle a = operand(4, k);
    Handle b = operand(k, 4);
    Buffer c = allocate(Elem::F32, 16, false, false);
    std::string init = constF32(salt() + 0.03125 * ++writes);
    emit("linalg.fill ins(" + init + " : f32) outs(" + c.access.value + " : " +
         c.access.type + ")");
    // A `?` size is given a static one by a subview first.
    Handle matrix = expand(prefix(c.access, Elem::F32, c.space, 16), 4, 4,
                           Elem::F32, c.space, "mat");
    emit("linalg.matmul ins(" + a.value + ", " + b.value + " : " + a.type +
         ", " + b.type + ") outs(" + matrix.value + " : " + matrix.type + ")");
    live.push_back(std::move(c));
  }

  /// Fills a live buffer with linalg.fill, then maybe copies part of
  /// another buffer of its element type over it with memref.copy.
  void fillAndCopy() {
    Buffer *target = randomLive();
    if (!target || !target->access.identity)
      return newBuffer();
    ++features->linalg;
    std::string value =
        fromF32(constF32(salt() * 5 + 0.03125 * ++writes), target->elem);
    emit("linalg.fill ins(" + value + " : " + typeName(target->elem) +
         ") outs(" + target->access.value + " : " + target->access.type + ")");
    std::vector<const Buffer *> sources;
    for (const Buffer &buffer : live)
      if (&buffer != target && buffer.elem == target->elem &&
          buffer.access.identity)
        sources.push_back(&buffer);
    if (sources.empty() || chance(25))
      return;
    const Buffer *source = sources[pick(sources.size())];
    int64_t count = std::min(source->access.count, target->access.count);
    Handle from = prefix(source->access, source->elem, source->space, count);
    Handle to = prefix(target->access, target->elem, target->space, count);
    emit("memref.copy " + from.value + ", " + to.value + " : " + from.type +
         " to " + to.type);
  }

  //===--------------------------------------------------------------------===//
  // Other region ops
  //===--------------------------------------------------------------------===//

  void affineLoop() {
    regionOp([&](Buffer *outer, const Retiring *dying) {
      std::string i = fresh("i");
      region("affine.for " + i + " = 0 to " + std::to_string(1 + pick(3)) +
                 " {",
             [&] { regionBuffer(outer, "", dying); });
    });
    ++features->otherRegions;
  }

  /// scf.index_switch on %n (3 in the first call of @kernel, 2 in the
  /// second), each case with a buffer of its own.
  void indexSwitch() {
    regionOp([&](Buffer *outer, const Retiring *dying) {
      emit("scf.index_switch %n");
      for (const char *label : {"case 2 {", "case 3 {", "default {"})
        region(
            label,
            [&] {
              if (chance(80))
                regionBuffer(outer, "", dying);
            },
            "scf.yield");
    });
    ++features->otherRegions;
  }

  /// scf.execute_region: a region that runs once, where it stands. (Not
  /// memref.alloca_scope, whose single block cannot hold the loops of
  /// these programs once scf is lowered to cf.)
  void executeRegion() {
    regionOp([&](Buffer *outer, const Retiring *dying) {
      region(
          "scf.execute_region {", [&] { regionBuffer(outer, "", dying); },
          "scf.yield");
    });
    ++features->otherRegions;
  }

  /// Passes a buffer to @sum_*, which reads it, or to @fill_*, which
  /// writes every element (`writing`); neither keeps anything of it.
  void call(bool writing) {
    Buffer *buffer = randomLive();
    if (!buffer || !buffer->access.identity)
      return newBuffer();
    std::string type = memrefType("?", buffer->elem, buffer->space);
    std::string argument = asHelperArgument(*buffer, type);
    if (writing) {
      std::string callee = fillFunction(buffer->elem, buffer->space);
      std::string value = constF32(salt() * 7 + 0.03125 * ++writes);
      emit("func.call @" + callee + "(" + argument + ", " + value + ") : (" +
           type + ", f32) -> ()");
      return;
    }
    std::string callee = sumFunction(buffer->elem, buffer->space);
    std::string result = fresh("called");
    emit(result + " = func.call @" + callee + "(" + argument + ") : (" + type +
         ") -> f32");
    addToOut(result);
  }

  /// One step of @kernel: an action drawn by weight.
  void takeAction() {
    const std::pair<int, std::function<void()>> actions[] = {
        {25, [&] { newBuffer(); }},
        {8, [&] { combine(); }},
        {15,
         [&] {
           if (!live.empty())
             retire(pick(live.size()));
         }},
        {8, [&] { view(); }},
        {5, [&] { select(); }},
        {7, [&] { branches(); }},
        {7, [&] { forLoop(); }},
        {4, [&] { whileLoop(); }},
        {4, [&] { carried(); }},
        {7, [&] { call(/*writing=*/false); }},
        {10, [&] { escape(); }},
        {6, [&] { parallelLoop(); }},
        {9, [&] { linalgWrite(); }},
        {6, [&] { fillAndCopy(); }},
        {3, [&] { affineLoop(); }},
        {3, [&] { indexSwitch(); }},
        {2, [&] { executeRegion(); }},
        {4, [&] { call(/*writing=*/true); }},
        {5, [&] { matmul(); }},
    };
    int total = 0;
    for (const auto &action : actions)
      total += action.first;
    int drawn = pick(total);
    for (const auto &[weight, act] : actions) {
      if (drawn < weight)
        return act();
      drawn -= weight;
    }
  }

  std::vector<std::string> writeKernel() {
    std::vector<std::string> kernel;
    lines = &kernel;
    indent = 2;
    input = {handles++, "%in", "memref<64xf32>", 64, true};
    emit("func.func @kernel(%in: memref<64xf32>, %out: memref<64xf32>, "
         "%cond: i1, %n: index) -> memref<16xf32> {");
    indent = 4;
    emit("%c0 = arith.constant 0 : index");
    emit("%c1 = arith.constant 1 : index");
    // Two buffers live together with different contents, the first read
    // after the second is written: any packing that overlaps them changes
    // the output.
    kernelLines = &kernel;
    hoistFloor = kernel.size();
    newBuffer(/*plain=*/true);
    newBuffer(/*plain=*/true);
    hoistFloor = kernel.size();
    retire(0);
    int steps = 6 + pick(12);
    int returnedAt = pick(steps);
    Handle returned;
    for (int step = 0; step < steps; ++step) {
      if (step == returnedAt) {
        returned = {handles++, fresh("ret"), "memref<16xf32>", 16, true};
        emit(returned.value + " = memref.alloc() : memref<16xf32>");
        ++features->buffers;
        auto [source, sourceElem] = randomSource();
        write(returned, Elem::F32, &source, sourceElem);
      }
      takeAction();
    }
    while (!live.empty())
      retire(pick(live.size()));
    for (const std::string &dealloc : deferredDeallocs)
      emit(dealloc);
    emit("return " + returned.value + " : memref<16xf32>");
    indent = 2;
    emit("}");
    return kernel;
  }

  //===--------------------------------------------------------------------===//
  // Helper functions and @main
  //===--------------------------------------------------------------------===//

  /// Writes the function @<kind>_<elem>_<space>(%m: memref<?x...>
  /// `extraParameters`) `results` once, and returns its name. `writeBody`
  /// emits its body after %c0 and %c1, given %m's type.
  template <typename WriteBody>
  std::string helperFunction(const char *kind, Elem elem, int space,
                             const std::string &extraParameters,
                             const std::string &results, WriteBody writeBody) {
    std::string name =
        std::string(kind) + "_" + typeName(elem) + "_" + std::to_string(space);
    for (char &c : name)
      if (!isalnum(static_cast<unsigned char>(c)))
        c = '_';
    if (!helperNames.insert(name).second)
      return name;
    std::vector<std::string> body;
    std::vector<std::string> *saved = lines;
    int savedIndent = indent;
    lines = &body;
    indent = 2;
    std::string type = memrefType("?", elem, space);
    emit("func.func private @" + name + "(%m: " + type + extraParameters + ")" +
         results + " {");
    indent = 4;
    emit("%c0 = arith.constant 0 : index");
    emit("%c1 = arith.constant 1 : index");
    writeBody(type);
    indent = 2;
    emit("}");
    std::string text;
    for (const std::string &line : body)
      text += line + "\n";
    helpers.push_back(text);
    lines = saved;
    indent = savedIndent;
    return name;
  }

  /// @sum_<elem>_<space>(%m) -> f32: the sum of every element.
  std::string sumFunction(Elem elem, int space) {
    return helperFunction(
        "sum", elem, space, "", " -> f32", [&](const std::string &type) {
          std::string size = fresh("size"), zero = constF32(0),
                      sum = fresh("sum"), i = fresh("i"), acc = fresh("acc");
          emit(size + " = memref.dim %m, %c0 : " + type);
          emit(sum + " = scf.for " + i + " = %c0 to " + size +
               " step %c1 iter_args(" + acc + " = " + zero + ") -> (f32) {");
          indent += 2;
          std::string loaded = fresh("ld");
          emit(loaded + " = memref.load %m[" + i + "] : " + type);
          std::string value = toF32(loaded, elem), next = fresh("s");
          emit(next + " = arith.addf " + acc + ", " + value + " : f32");
          emit("scf.yield " + next + " : f32");
          indent -= 2;
          emit("}");
          emit("return " + sum + " : f32");
        });
  }

  /// @fill_<elem>_<space>(%m, %x): m[i] = x + i / 4 for every element.
  std::string fillFunction(Elem elem, int space) {
    return helperFunction(
        "fill", elem, space, ", %x: f32", "", [&](const std::string &type) {
          std::string size = fresh("size"), quarter = constF32(0.25),
                      i = fresh("i");
          emit(size + " = memref.dim %m, %c0 : " + type);
          emit("scf.for " + i + " = %c0 to " + size + " step %c1 {");
          indent += 2;
          std::string wide = fresh("w"), fi = fresh("fi"), scaled = fresh("s"),
                      value = fresh("s");
          emit(wide + " = arith.index_cast " + i + " : index to i64");
          emit(fi + " = arith.sitofp " + wide + " : i64 to f32");
          emit(scaled + " = arith.mulf " + fi + ", " + quarter + " : f32");
          emit(value + " = arith.addf " + scaled + ", %x : f32");
          emit("memref.store " + fromF32(value, elem) + ", %m[" + i +
               "] : " + type);
          indent -= 2;
          emit("}");
          emit("return");
        });
  }

  static std::string readRawFunction() {
    return "  func.func private @read_raw(%address: index, %element: index) "
           "-> f32 {\n"
           "    %c4 = arith.constant 4 : index\n"
           "    %offset = arith.muli %element, %c4 : index\n"
           "    %at = arith.addi %address, %offset : index\n"
           "    %wide = arith.index_cast %at : index to i64\n"
           "    %pointer = llvm.inttoptr %wide : i64 to !llvm.ptr\n"
           "    %value = llvm.load %pointer : !llvm.ptr -> f32\n"
           "    return %value : f32\n"
           "  }\n";
  }

  static std::string checksum(const std::string &buffer, int64_t count,
                              const std::string &in, const std::string &out) {
    std::ostringstream os;
    os << "    %n_" << out << " = arith.constant " << count << " : index\n"
       << "    %" << out << " = scf.for %i_" << out << " = %c0 to %n_" << out
       << " step %c1 iter_args(%h_" << out << " = %" << in << ") -> (i64) {\n"
       << "      %v_" << out << " = memref.load " << buffer << "[%i_" << out
       << "] : memref<" << count << "xf32>\n"
       << "      %b_" << out << " = arith.bitcast %v_" << out
       << " : f32 to i32\n"
       << "      %e_" << out << " = arith.extui %b_" << out << " : i32 to i64\n"
       << "      %x_" << out << " = arith.xori %h_" << out << ", %e_" << out
       << " : i64\n"
       << "      %p_" << out << " = arith.muli %x_" << out << ", %prime : i64\n"
       << "      scf.yield %p_" << out << " : i64\n"
       << "    }\n";
    return os.str();
  }

  /// @main; it frees what it allocates unless the program has no deallocs
  /// at all (`freeBuffers` false).
  static std::string mainFunction(bool freeBuffers) {
    std::ostringstream os;
    os << "  func.func @main() -> i64 attributes {llvm.emit_c_interface} {\n"
       << "    %c0 = arith.constant 0 : index\n"
       << "    %c1 = arith.constant 1 : index\n"
       << "    %c2 = arith.constant 2 : index\n"
       << "    %c3 = arith.constant 3 : index\n"
       << "    %c64 = arith.constant 64 : index\n"
       << "    %true = arith.constant true\n"
       << "    %false = arith.constant false\n"
       << "    %zero = arith.constant 0.0 : f32\n"
       << "    %step = arith.constant 0.375 : f32\n"
       << "    %base = arith.constant -5.0 : f32\n"
       << "    %in = memref.alloc() : memref<64xf32>\n"
       << "    %out = memref.alloc() : memref<64xf32>\n"
       << "    scf.for %i = %c0 to %c64 step %c1 {\n"
       << "      %w = arith.index_cast %i : index to i64\n"
       << "      %f = arith.sitofp %w : i64 to f32\n"
       << "      %s = arith.mulf %f, %step : f32\n"
       << "      %v = arith.addf %s, %base : f32\n"
       << "      memref.store %v, %in[%i] : memref<64xf32>\n"
       << "      memref.store %zero, %out[%i] : memref<64xf32>\n"
       << "    }\n"
       << "    %r1 = func.call @kernel(%in, %out, %true, %c3) : "
          "(memref<64xf32>, memref<64xf32>, i1, index) -> memref<16xf32>\n"
       << "    %r2 = func.call @kernel(%in, %out, %false, %c2) : "
          "(memref<64xf32>, memref<64xf32>, i1, index) -> memref<16xf32>\n"
       << "    %prime = arith.constant 1099511628211 : i64\n"
       << "    %h0 = arith.constant 1469598103934665603 : i64\n"
       << checksum("%out", 64, "h0", "h1") << checksum("%r1", 16, "h1", "h2")
       << checksum("%r2", 16, "h2", "h3");
    if (freeBuffers)
      os << "    memref.dealloc %in : memref<64xf32>\n"
         << "    memref.dealloc %out : memref<64xf32>\n"
         << "    memref.dealloc %r1 : memref<16xf32>\n"
         << "    memref.dealloc %r2 : memref<16xf32>\n";
    os << "    return %h3 : i64\n"
       << "  }\n";
    return os.str();
  }

  std::mt19937_64 rng, laterRng;
  ProgramFeatures *features = nullptr;
  int deallocMode = 0;
  bool spaceOneAllowed = true;
  unsigned counter = 0, handles = 0, nextSlot = 0, writes = 0;
  int regionDepth = 0;     ///< region ops around what is being written
  bool inParallel = false; ///< inside a parallel loop
  std::vector<std::string> *lines = nullptr;
  /// The kernel's lines, and the first of them a hoisted alloc may take.
  const std::vector<std::string> *kernelLines = nullptr;
  size_t hoistFloor = 0;
  int indent = 0;
  Handle input;
  std::vector<Buffer> live;
  std::set<unsigned> consumed;
  std::vector<std::string> deferredDeallocs;
  std::vector<std::string> helpers;
  std::set<std::string> helperNames;
};

} // namespace

std::string memplan::generateBufferizedProgram(uint64_t seed,
                                               ProgramFeatures *features) {
  ProgramFeatures ignored;
  return Generator(seed).run(features ? *features : ignored);
}
