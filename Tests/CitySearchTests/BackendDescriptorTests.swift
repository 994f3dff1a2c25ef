import CitySearch
import CitySearchCatalog
import CitySearchICU
import CitySearchTestSupport
import Testing

/// What the backends declare of themselves (`BackendDescriptor`), which the command line and
/// the conformance run read instead of naming backends.
@Suite(.timed) struct BackendDescriptorTests {
  @Test func everyDeclaredOptionIsABackendOption() {
    for type in BackendCatalog.all {
      for option in type.descriptor.options {
        #expect(BackendOptions.names[option] != nil, "\(type.name) declares the unknown option '\(option)'")
      }
    }
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
    #expect(labels == ["icu-raw", "icu-cached-raw"])
  }

  @Test func onlyTheUncachedICUBackendIsSampled() {
    for type in BackendCatalog.all where type != ICUBackend.self {
      #expect(type.descriptor.conformanceSample.isEmpty, "\(type.name)")
    }
    #expect(ICUBackend.descriptor.conformanceSample == [.cities: 300, .towns: 30, .villages: 4])
  }
}
