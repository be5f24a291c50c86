import Configuration
import Foundation
import Livery

/// How a spec value becomes the type a reader asks for. Strict, as the spec format is: a string is
/// never read as a number or a boolean, a fractional number never as an integer; bytes are base64
/// strings, as swift-configuration's file providers read them by default.
enum SpecValueConversion {
    /// The content of `node` as `type`; nil for a null; throws ``SpecValueError`` on a mismatch.
    static func content(of node: SpecNode, as type: ConfigType, key: String) throws(SpecValueError) -> ConfigContent? {
        if case .null = node.value { return nil }
        let mismatch = SpecValueError(key: key, type: type, location: node.location, found: node.foundDescription)
        switch type {
        case .string: return .string(try string(node, mismatch))
        case .int: return .int(try int(node, mismatch))
        case .double: return .double(try double(node, mismatch))
        case .bool: return .bool(try bool(node, mismatch))
        case .bytes: return .bytes(try bytes(node, mismatch))
        case .stringArray: return .stringArray(try elements(of: node, mismatch, string))
        case .intArray: return .intArray(try elements(of: node, mismatch, int))
        case .doubleArray: return .doubleArray(try elements(of: node, mismatch, double))
        case .boolArray: return .boolArray(try elements(of: node, mismatch, bool))
        case .byteChunkArray: return .byteChunkArray(try elements(of: node, mismatch, bytes))
        }
    }

    /// A list's elements, each converted; the first that does not fit is the error.
    private static func elements<Element>(
        of node: SpecNode, _ mismatch: SpecValueError,
        _ convert: (SpecNode, SpecValueError) throws(SpecValueError) -> Element
    ) throws(SpecValueError) -> [Element] {
        guard case .sequence(let items) = node.value else { throw mismatch }
        return try items.map { (item) throws(SpecValueError) in try convert(item, mismatch) }
    }

    /// An element's mismatch is reported where the element is.
    private static func located(_ mismatch: SpecValueError, at node: SpecNode) -> SpecValueError {
        var error = mismatch
        error.location = node.location
        error.found = node.foundDescription
        return error
    }

    private static func string(_ node: SpecNode, _ mismatch: SpecValueError) throws(SpecValueError) -> String {
        guard case .string(let string) = node.value else { throw located(mismatch, at: node) }
        return string
    }

    private static func int(_ node: SpecNode, _ mismatch: SpecValueError) throws(SpecValueError) -> Int {
        switch node.value {
        case .int(let int): return int
        case .double(let double):
            guard let int = Int(exactly: double) else { throw located(mismatch, at: node) }
            return int
        default: throw located(mismatch, at: node)
        }
    }

    private static func double(_ node: SpecNode, _ mismatch: SpecValueError) throws(SpecValueError) -> Double {
        switch node.value {
        case .int(let int): return Double(int)
        case .double(let double): return double
        default: throw located(mismatch, at: node)
        }
    }

    private static func bool(_ node: SpecNode, _ mismatch: SpecValueError) throws(SpecValueError) -> Bool {
        guard case .bool(let bool) = node.value else { throw located(mismatch, at: node) }
        return bool
    }

    private static func bytes(_ node: SpecNode, _ mismatch: SpecValueError) throws(SpecValueError) -> [UInt8] {
        guard case .string(let string) = node.value, let data = Data(base64Encoded: string) else {
            throw located(mismatch, at: node)
        }
        return Array(data)
    }
}
