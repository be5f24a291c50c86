import Configuration
import ConfigurationTesting
import Livery
import LiveryConfiguration
import Testing

/// Values read from a spec's variables: swift-configuration's own compatibility suite, key
/// encoding, references, functions, themes and located type errors.
@Suite struct SpecValuesTests {
    /// The data `ProviderCompatTest` requires, as a spec author writes it.
    static let compatSpec = """
        variables:
          string: Hello
          int: 42
          double: 3.14
          bool: true
          bytes: bWFnaWM=
          stringy: { array: [Hello, World] }
          inty: { array: [42, 24] }
          doubly: { array: [3.14, 2.72] }
          booly: { array: [true, false] }
          byteChunky: { array: [bWFnaWM=, bWFnaWMy] }
          other:
            string: Other Hello
            int: 24
            double: 2.72
            bool: false
            bytes: bWFnaWMy
            stringy: { array: [Hello, Swift] }
            inty: { array: [16, 32] }
            doubly: { array: [0.9, 1.8] }
            booly: { array: [false, true, true] }
            byteChunky: { array: [bWFnaWM=, bWFnaWMy, bWFnaWM=] }
        """

    @Test func passesSwiftConfigurationsProviderCompatTest() async throws {
        let provider = try SpecConfigProvider(spec: try Spec(yaml: Self.compatSpec))
        try await ProviderCompatTest(provider: provider).runTest()
    }

    static let themed = """
        variables:
          colors: { accent: "#0A84FF", text: "#1C1C1E" }
          http: { timeout: 30, hosts: [a.example, b.example] }
          shadow: "~alpha(@colors.text, 0.5)"
          link: "@colors.accent"
        themes:
          dark:
            colors: { accent: "#64D2FF" }
            http: { timeout: 45 }
        specs: {}
        """

    @Test func readsNestedKeysReferencesFunctionsAndThemes() throws {
        let spec = try Spec(yaml: Self.themed, source: "values.yaml")
        let config = ConfigReader(provider: try SpecConfigProvider(spec: spec))
        #expect(config.int(forKey: "http.timeout") == 30)
        #expect(config.stringArray(forKey: "http.hosts") == ["a.example", "b.example"])
        #expect(config.double(forKey: "http.timeout") == 30)
        #expect(config.string(forKey: "link") == "#0A84FF")
        #expect(config.string(forKey: "shadow") == "#1C1C1E80")
        #expect(config.string(forKey: "http") == nil)  // a mapping is no value
        #expect(config.scoped(to: "colors").string(forKey: "text") == "#1C1C1E")

        let dark = ConfigReader(provider: try SpecConfigProvider(spec: spec, theme: "dark"))
        #expect(dark.int(forKey: "http.timeout") == 45)
        #expect(dark.string(forKey: "link") == "#64D2FF")  // the reference follows the theme
        #expect(dark.string(forKey: "colors.text") == "#1C1C1E")
    }

    @Test func aTypeMismatchIsSwiftConfigurationsConversionErrorLocated() throws {
        let spec = try Spec(yaml: Self.themed, source: "values.yaml")
        let provider = try SpecConfigProvider(spec: spec)
        #expect(
            throws: SpecValueError(
                key: "colors.accent", type: .int, location: .init(file: "values.yaml", line: 2, column: 21),
                found: "the string '#0A84FF'")
        ) {
            try provider.value(forKey: ["colors", "accent"], type: .int)
        }
        let error = try #require(throws: SpecValueError.self) {
            try ConfigReader(provider: provider).requiredInt(forKey: "colors.accent")
        }
        #expect(
            "\(error)"
                == "values.yaml:2:21: error: Config value for key 'colors.accent' failed to convert to type int; found the string '#0A84FF'"
        )
        // The non-throwing getter falls back to the default, as with every provider.
        #expect(ConfigReader(provider: provider).int(forKey: "colors.accent", default: 7) == 7)
        // A list element of the wrong type is reported where it is.
        let element = try #require(throws: SpecValueError.self) {
            try provider.value(forKey: ["http", "hosts"], type: .intArray)
        }
        #expect(element.location == .init(file: "values.yaml", line: 3, column: 32))
    }

    @Test(arguments: [
        ("port: \"8080\"", ConfigType.int), ("on: \"true\"", .bool), ("ratio: \"0.5\"", .double),
        ("half: 0.5", .int), ("on: yes", .bool), ("count: 3", .string), ("hosts: [1, 2]", .stringArray),
    ])
    func theTypesAreAsStrictAsTheSpecFormat(variable: String, type: ConfigType) throws {
        let spec = try Spec(yaml: "variables:\n  \(variable)\nspecs: {}\n", source: "v.yaml")
        let key = String(variable.prefix { $0 != ":" })
        #expect(throws: SpecValueError.self) { try SpecValues(spec: spec).value(forKey: [key], type: type) }
    }

    @Test func aBadVariableIsALocatedErrorEvenIfNoTraitReadsIt() throws {
        let spec = try Spec(
            yaml: "variables:\n  http: { timeout: \"@http.missing\" }\nspecs: {}\n", source: "values.yaml")
        #expect(throws: SpecError.self) { try SpecConfigProvider(spec: spec) }
        let error = try #require(throws: SpecError.self) { try SpecValues(spec: spec) }
        #expect(error.description.hasPrefix("values.yaml:2:20: error: "))
        #expect(error.code == .unresolvedReference)
    }

    @Test func anUnknownThemeIsRefusedAndTheValuesStay() throws {
        let provider = try SpecConfigProvider(spec: try Spec(yaml: Self.themed, source: "values.yaml"))
        #expect(throws: SpecError.self) { try provider.setTheme("sepia") }
        #expect(provider.theme == nil)
        #expect(try provider.value(forKey: ["http", "timeout"], type: .int).value == 30)
        try provider.setTheme("dark")
        #expect(try provider.value(forKey: ["http", "timeout"], type: .int).value == 45)
    }
}
