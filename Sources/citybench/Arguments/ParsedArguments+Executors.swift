import CitySearchExecutor

extension ParsedArguments {
  /// Every `--executor NAME=CMD`, in order; a malformed one or a name given twice is a usage
  /// error.
  func executorSpecs() throws -> [ExecutorSpec] {
    let specs = try all("--executor").map { text in
      do {
        return try ExecutorSpec(parsing: text)
      } catch let error as WireError {
        throw UsageError(message: "--executor: \(error.message)")
      }
    }
    if let twice = Dictionary(grouping: specs, by: \.name).first(where: { $0.value.count > 1 })?.key {
      throw UsageError(message: "--executor names '\(twice)' twice")
    }
    return specs
  }
}
