public import Livery

extension SpecFormat {
    /// The `Content-Type` a spec file of this format is served with.
    @_spi(LiveryInternal) public var contentType: String {
        switch self {
        case .json: "application/json"
        case .yaml: "application/yaml; charset=utf-8"
        }
    }
}
