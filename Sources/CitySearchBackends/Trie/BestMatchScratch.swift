import CitySearch
import Foundation

/// Per-place running minimum of packed matches, reset in O(touched) by a generation stamp, for
/// backends that reach a place several times (once per matching run) and must report its best
/// match once. Buffers are pooled so that a query allocates nothing in the steady state and
/// concurrent queries each get their own.
///
/// The buffers are raw memory the scratch owns, and its two counters are exempt from dynamic
/// exclusivity checks: a class's arrays and variables are checked at every access (a runtime
/// call that scans the accesses in progress) and their arrays for uniqueness at every write,
/// which cost `trie` about half its instructions on a broad keystroke (`xian` on cities),
/// where every posting is offered. Only the scratch's own methods touch them, one caller at a
/// time (the pool hands each buffer to one query).
final class BestMatchScratch {
  /// Per place, the generation of its last offer in the high half and its best packed match so
  /// far in the low half: one word, so that an offer reads and writes one cache line, where a
  /// stamp and a match kept apart took two (a walk offers its places in no order, and in the
  /// bench, after the reference's scan, each of those lines comes from far away).
  private let slots: UnsafeMutableBufferPointer<UInt64>
  /// The places offered since the last reset, in the order first offered: the first
  /// `touchedCount` (each place is offered first at most once per generation).
  private let touched: UnsafeMutableBufferPointer<Int32>
  @exclusivity(unchecked) private var touchedCount = 0
  @exclusivity(unchecked) private var generation: UInt32 = 0

  /// Buffers for the places `0..<placeCount`.
  init(placeCount: Int) {
    slots = .allocate(capacity: placeCount)
    slots.initialize(repeating: 0)
    touched = .allocate(capacity: placeCount)
    touched.initialize(repeating: 0)
  }

  deinit {
    slots.deallocate()
    touched.deallocate()
  }

  /// Forgets every offer, in O(1) (O(places) once in 2³² resets).
  func reset() {
    touchedCount = 0
    generation &+= 1
    if generation == 0 {  // wrapped: old stamps could collide
      slots.update(repeating: 0)
      generation = 1
    }
  }

  /// Keeps `match` for `place` if it is the place's best so far.
  @inline(__always)
  func offer(_ place: Int, _ match: Match) {
    let slot = slots[place]
    if UInt32(truncatingIfNeeded: slot >> 32) != generation {
      slots[place] = UInt64(generation) << 32 | UInt64(match.bits)
      touched[touchedCount] = Int32(place)
      touchedCount += 1
    } else if match.bits < UInt32(truncatingIfNeeded: slot) {
      slots[place] = slot & ~0xFFFF_FFFF | UInt64(match.bits)
    }
  }

  /// Calls `body` once per offered place with its best match, in the order first offered.
  func forEachBest(_ body: (Int, Match) -> Void) {
    for place in touched[..<touchedCount] {
      body(Int(place), Match(bits: UInt32(truncatingIfNeeded: slots[Int(place)])))
    }
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
