import Foundation

/// Results written by concurrent workers, one slot each, under a lock.
public final class ConcurrentResults<Value>: @unchecked Sendable {
  private var values: [Value?]
  private let lock = NSLock()

  private init(count: Int) { values = [Value?](repeating: nil, count: count) }

  private func set(_ i: Int, _ value: Value) {
    lock.lock()
    values[i] = value
    lock.unlock()
  }

  /// `work(i)` for every `i` in `0..<count`, in order: computed on all cores, or on the calling
  /// thread alone when `concurrently` is false (the results are the same).
  public static func map(count: Int, concurrently: Bool, _ work: @Sendable (Int) -> Value) -> [Value] {
    guard concurrently else { return (0..<count).map(work) }
    let results = ConcurrentResults(count: count)
    DispatchQueue.concurrentPerform(iterations: count) { results.set($0, work($0)) }
    return results.values.map { $0! }
  }
}
