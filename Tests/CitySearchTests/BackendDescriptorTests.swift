import CitySearch
import CitySearchCatalog
import CitySearchICU
import CitySearchTestSupport
import Testing

/// What the backends declare of themselves (`BackendDescriptor`), which the command line and
/// the conformance run read instead of naming backends.
@Suite(.timed) struct BackendDescriptorTests {
  /// Each option is declared once, under one name, with a default its own check accepts.
  @Test func declaredOptionsAreNamedOnceAndAcceptTheirDefaults() {
    let options = BackendCatalog.options
    #expect(Set(options.map(\.name)).count == options.count)
    #expect(
      options.map(\.name).sorted() == ["concurrent-build", "fuzzy-answers", "fuzzy-lists", "icu-raw", "short-answers"])
    for option in options {
      #expect(option.canonical(option.defaultText) == option.defaultText, "\(option.name)")
    }
    for type in BackendCatalog.all {
      #expect(type.descriptor.acceptedOptions.first?.name == "concurrent-build", "\(type.name)")
    }
  }

  /// The gate's per-backend allowance comes from the descriptors: only the uncached ICU
  /// backend, whose latency swings with its per-keystroke allocations, declares one.
  @Test func onlyTheUncachedICUBackendHasAGateAllowance() {
    #expect(BackendCatalog.gateAllowances == ["icu": 1.0])
  }

  @Test func variantsAreLabelledApartAndDifferFromTheDefaults() {
    let names = Set(BackendCatalog.all.map { $0.name })
    var labels: Set<String> = []
    for type in BackendCatalog.all {
      for variant in type.descriptor.variants {
        let label = variant.label(of: type.name)
        #expect(!names.contains(label) && labels.insert(label).inserted, "\(label) is not a label of its own")
        #expect(variant.options != BackendOptions(), "\(label) is built with the default options")
      }
    }
    #expect(
      labels == [
        "icu-raw", "icu-cached-raw", "trie-fuzzy-answers", "inverted-index-fuzzy-answers", "inverted-index-fuzzy-lists",
      ])
  }

  @Test func onlyTheUncachedICUBackendIsSampled() {
    for type in BackendCatalog.all where type != ICUBackend.self {
      #expect(type.descriptor.conformanceSample.isEmpty, "\(type.name)")
    }
    #expect(ICUBackend.descriptor.conformanceSample == [.cities: 300, .towns: 30, .villages: 4])
  }
}
