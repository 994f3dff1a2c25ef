import Foundation

/// Per-place running minimum of packed matches, reset in O(touched) by a generation stamp, for
/// backends that reach a place several times (once per matching run) and must report its best
/// match once. Buffers are pooled so that a query allocates nothing in the steady state and
/// concurrent queries each get their own.
final class BestMatchScratch {
  private var stamps: [UInt32]
  private var best: [UInt32]
  private(set) var touched: [Int32] = []
  private var generation: UInt32 = 0

  init(placeCount: Int) {
    stamps = [UInt32](repeating: 0, count: placeCount)
    best = [UInt32](repeating: 0, count: placeCount)
  }

  func reset() {
    touched.removeAll(keepingCapacity: true)
    generation &+= 1
    if generation == 0 {  // wrapped: old stamps could collide
      for i in stamps.indices { stamps[i] = 0 }
      generation = 1
    }
  }

  @inline(__always)
  func offer(_ place: Int, _ match: PackedMatch) {
    if stamps[place] != generation {
      stamps[place] = generation
      best[place] = match.bits
      touched.append(Int32(place))
    } else if match.bits < best[place] {
      best[place] = match.bits
    }
  }

  func forEachBest(_ body: (Int, PackedMatch) -> Void) {
    for place in touched { body(Int(place), PackedMatch(bits: best[Int(place)])) }
  }
}

/// A lock-protected stack of ``BestMatchScratch`` buffers for one corpus.
final class BestMatchScratchPool: @unchecked Sendable {
  private let placeCount: Int
  private let lock = NSLock()
  private var free: [BestMatchScratch] = []

  init(placeCount: Int) { self.placeCount = placeCount }

  func withScratch<R>(_ body: (BestMatchScratch) -> R) -> R {
    lock.lock()
    let scratch = free.popLast() ?? BestMatchScratch(placeCount: placeCount)
    lock.unlock()
    scratch.reset()
    defer {
      lock.lock()
      free.append(scratch)
      lock.unlock()
    }
    return body(scratch)
  }
}
