import CitySearch
import Foundation

/// Per-place running minimum of packed matches, reset in O(touched) by a generation stamp, for
/// backends that reach a place several times (once per matching run) and must report its best
/// match once. Buffers are pooled so that a query allocates nothing in the steady state and
/// concurrent queries each get their own.
final class BestMatchScratch {
  private var stamps: [UInt32]
  private var best: [UInt32]
  /// The places offered since the last reset, in the order first offered.
  private(set) var touched: [Int32] = []
  private var generation: UInt32 = 0

  /// Buffers for the places `0..<placeCount`.
  init(placeCount: Int) {
    stamps = [UInt32](repeating: 0, count: placeCount)
    best = [UInt32](repeating: 0, count: placeCount)
  }

  /// Forgets every offer, in O(touched).
  func reset() {
    touched.removeAll(keepingCapacity: true)
    generation &+= 1
    if generation == 0 {  // wrapped: old stamps could collide
      for i in stamps.indices { stamps[i] = 0 }
      generation = 1
    }
  }

  /// Keeps `match` for `place` if it is the place's best so far.
  @inline(__always)
  func offer(_ place: Int, _ match: Match) {
    if stamps[place] != generation {
      stamps[place] = generation
      best[place] = match.bits
      touched.append(Int32(place))
    } else if match.bits < best[place] {
      best[place] = match.bits
    }
  }

  /// Calls `body` once per offered place with its best match.
  func forEachBest(_ body: (Int, Match) -> Void) {
    for place in touched { body(Int(place), Match(bits: best[Int(place)])) }
  }
}

/// A lock-protected stack of ``BestMatchScratch`` buffers for one corpus.
final class BestMatchScratchPool: @unchecked Sendable {
  private let placeCount: Int
  private let lock = NSLock()
  private var free: [BestMatchScratch] = []

  /// An empty pool of buffers for the places `0..<placeCount`.
  init(placeCount: Int) { self.placeCount = placeCount }

  /// Calls `body` with a reset buffer that no other caller holds meanwhile.
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
