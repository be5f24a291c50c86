import Foundation
import Livery

/// What a promotion would change on its target (`GET …/promotions/preview`): the files added,
/// changed and removed, and each identifier whose resolved traits differ, before and after,
/// compared look by look (the base and each theme) as the daemon's loader resolves them.
struct PromotionPreview: Codable, Sendable {
    /// One identifier whose resolved traits differ.
    struct Identifier: Codable, Sendable, Equatable {
        var identifier: String
        /// Its looks on the target now; `nil` when the target has no such identifier.
        var before: [Look]?
        /// Its looks after the promotion; `nil` when the source has no such identifier.
        var after: [Look]?
    }

    /// The resolved traits of one look of an identifier.
    struct Look: Codable, Sendable, Equatable {
        /// The theme; `nil` for the base look.
        var theme: String?
        /// Each trait as its type and its resolved values: `CornerRadius {"radius":8}`.
        var traits: [String]
    }

    /// The source's name.
    var from: String
    /// The source's revision promoted; `nil` when the source has no history.
    var revision: Int64?
    var added: [String]
    var changed: [String]
    var removed: [String]
    var identifiers: [Identifier]

    init(
        from: String, revision: Int64?, before: SpecSourceSet, after: SpecSourceSet, beforeSpec: Spec?,
        afterSpec: Spec
    ) {
        self.from = from
        self.revision = revision
        added = after.sortedPaths.filter { before.files[$0] == nil }
        changed = after.sortedPaths.filter { path in
            before.files[path].map { $0.data != after.files[path]?.data } ?? false
        }
        removed = before.sortedPaths.filter { after.files[$0] == nil }
        let old = beforeSpec.map(Self.looks) ?? [:]
        let new = Self.looks(of: afterSpec)
        identifiers = Set(old.keys).union(new.keys).sorted().compactMap { name in
            old[name] == new[name] ? nil : Identifier(identifier: name, before: old[name], after: new[name])
        }
    }

    /// Every identifier's looks: the base, then each theme.
    private static func looks(of spec: Spec) -> [String: [Look]] {
        let themes: [String?] = [nil] + spec.themes.map { $0 }
        var looks: [String: [Look]] = [:]
        for identifier in spec.identifiers {
            looks[identifier] = themes.map { theme in
                Look(theme: theme, traits: spec.traits(for: identifier, theme: theme).map(describe))
            }
        }
        return looks
    }

    private static func describe(_ trait: any Trait) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let values: String
        do {
            values = String(decoding: try encoder.encode(trait), as: UTF8.self)
        } catch {
            values = "(\(error))"
        }
        return "\(type(of: trait).typeName) \(values)"
    }
}
