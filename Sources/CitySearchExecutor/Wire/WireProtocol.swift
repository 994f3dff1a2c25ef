/// The version of the wire protocol spoken by an executor over standard input and output, one
/// JSON object per line (docs/Architecture.md): a ``WireHandshake``, then ``WireQuery`` lines
/// answered by ``WireAnswer`` lines in the same order.
public enum WireProtocol {
  /// The version this build speaks; a handshake with another major version is refused.
  public static let version = 1
}
