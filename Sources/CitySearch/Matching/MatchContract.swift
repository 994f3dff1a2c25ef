/// The version of the match contract this package implements (docs/MatchSpec.md, whose title
/// names it; a test holds them equal). A file of precomputed answers records it, so that answers
/// computed under another contract are refused.
public enum MatchContract {
  /// `3.4`: the major version changes golden results, the minor one adds rules.
  public static let version = "3.4"
}
