/// A ``PropertyTrait`` whose stored properties are exactly its declared ``TraitProperty`` fields,
/// spelt as specs spell them: such a trait is decoded straight from its entry by its declaration,
/// without `Decodable`'s containers (``TraitType/decode(_:)``).
///
/// Only for traits whose `Decodable` conformance is the synthesised one: the declared read must
/// give what `init(from:)` gives. `DeclaredDecodingTests` holds the two paths equal.
protocol DeclarationDecodable: PropertyTrait {
    /// A value every declared field is then written over: what a required field holds here is
    /// never seen, and an optional one is nil.
    static var blank: Self { get }
}

extension DeclarationDecodable {
    /// Reads `entry` by the declaration, with what the trait sets (one per property, as
    /// ``TraitType/settings(of:)`` gives them); nil for anything but the plain, valid shape (a
    /// field missing or of another form, a key no field declares), which the general path then
    /// decodes or reports with its place. The entry's `type` key is the only other one it takes.
    static func declaredReader() -> (@Sendable (SpecNode) -> DecodedTrait?)? {
        var declared: [(name: String, read: @Sendable (inout Self, SpecNode?) -> FieldRead)] = []
        for property in properties {
            guard let read = property.read, property.field != "type" else { return nil }
            declared.append((property.field, read))
        }
        let fields = declared
        return { entry in
            guard case .mapping(let members) = entry.value else { return nil }
            var trait = blank
            var settings: [PropertyValue?] = []
            settings.reserveCapacity(fields.count)
            var found = 0
            for field in fields {
                let index = members.firstIndex { $0.key == field.name }
                guard case .setting(let setting) = field.read(&trait, index.map { members[$0].value }) else {
                    return nil
                }
                settings.append(setting)
                if index != nil { found += 1 }
            }
            return found + 1 == members.count ? DecodedTrait(trait: trait, names: nil, settings: settings) : nil
        }
    }
}

/// What reading one declared field from its node found.
enum FieldRead: Sendable {
    /// The value was written into the trait; what the trait then sets (nil: left as it is).
    case setting(PropertyValue?)
    /// The node is not a plain valid value of the field.
    case invalid
}

/// A property value read straight from a node in the forms its `Decodable` conformance reads
/// without error; nil for any other node, which the general path then reports.
protocol NodeReadable: Sendable {
    static func read(_ node: SpecNode) -> Self?
}

extension Double: NodeReadable {
    static func read(_ node: SpecNode) -> Double? {
        switch node.value {
        case .double(let double): double
        case .int(let int): Double(int)
        default: nil
        }
    }
}

extension Int: NodeReadable {
    static func read(_ node: SpecNode) -> Int? {
        if case .int(let int) = node.value { return int }
        return nil
    }
}

extension Bool: NodeReadable {
    static func read(_ node: SpecNode) -> Bool? {
        if case .bool(let bool) = node.value { return bool }
        return nil
    }
}

extension String: NodeReadable {
    static func read(_ node: SpecNode) -> String? {
        if case .string(let string) = node.value { return string }
        return nil
    }
}

extension Color: NodeReadable {
    static func read(_ node: SpecNode) -> Color? {
        guard case .string(let text) = node.value else { return nil }
        do {
            return try Color(parsing: text)
        } catch {
            // Not a colour: the general path decodes it again and reports why, at its place.
            return nil
        }
    }
}

extension FontWeight: NodeReadable {
    static func read(_ node: SpecNode) -> FontWeight? {
        switch node.value {
        case .string(let text):
            do {
                return try FontWeight(parsing: text)
            } catch {
                // Not a weight: the general path decodes it again and reports why, at its place.
                return nil
            }
        case .int(let number): return FontWeight(numericValue: number)
        case .double(let number) where number.rounded() == number && abs(number) <= 1e6:
            return FontWeight(numericValue: Int(number))
        default: return nil
        }
    }
}

extension Size: NodeReadable {
    static func read(_ node: SpecNode) -> Size? {
        guard let numbers = node.numbers(["width", "height"]) else { return nil }
        return Size(width: numbers[0], height: numbers[1])
    }
}

extension Insets: NodeReadable {
    static func read(_ node: SpecNode) -> Insets? {
        if let all = Double.read(node) { return Insets(all: all) }
        guard let numbers = node.numbers(["top", "left", "bottom", "right"]) else { return nil }
        return Insets(top: numbers[0], left: numbers[1], bottom: numbers[2], right: numbers[3])
    }
}

extension SpecNode {
    /// Whether the node is null.
    var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    /// The numbers of a mapping of exactly `keys` (in any order), or of a list of as many numbers
    /// in their order; nil for anything else.
    fileprivate func numbers(_ keys: [String]) -> [Double]? {
        switch value {
        case .mapping(let members) where members.count == keys.count:
            var numbers = [Double](repeating: 0, count: keys.count)
            for member in members {
                guard let index = keys.firstIndex(of: member.key), let number = Double.read(member.value) else {
                    return nil
                }
                numbers[index] = number
            }
            return numbers
        case .sequence(let items) where items.count == keys.count:
            var numbers: [Double] = []
            numbers.reserveCapacity(items.count)
            for item in items {
                guard let number = Double.read(item) else { return nil }
                numbers.append(number)
            }
            return numbers
        default:
            return nil
        }
    }
}
