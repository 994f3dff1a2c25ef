import Foundation

/// A value computed on another core while the caller goes on, and waited for where it is
/// needed: work that does not depend on what the caller does meanwhile (an opened index's
/// tables derived from its corpus while the file's tables are checked).
///
/// ```swift
/// let facts = BackgroundResult { derive(corpus) }
/// try check(file)
/// use(facts.value)  // waits for it
/// ```
public final class BackgroundResult<Value: Sendable>: @unchecked Sendable {
  private let done = DispatchGroup()
  /// Written once by the worker before `done` is left; read only after it is.
  private var result: Value?

  /// Starts `work` on a global queue.
  public init(_ work: @escaping @Sendable () -> Value) {
    done.enter()
    DispatchQueue.global(qos: .userInitiated).async {
      self.result = work()
      self.done.leave()
    }
  }

  /// The value, once the work has finished.
  public var value: Value {
    done.wait()
    return result!
  }
}
