/// A spec resolved for one theme: for each identifier, the traits to apply, in order.
struct Resolution: Sendable {
    /// One identifier's traits, with a digest of the resolved entries they were decoded from.
    struct List: Sendable {
        let traits: [ResolvedTrait]
        /// Equal exactly when two lists of one resolution have traits of the same shapes (see
        /// ``ResolvedTrait/Shape``) in the same order; 0 for no traits, in every resolution. What a load compares for every target to
        /// reuse a plan, without reading the traits. Numbered by the resolution, so that the
        /// numbers of a long-running process do not pile up.
        fileprivate(set) var typeSequence = 0
        /// Equal exactly when the resolved entries are (see ``ContentDigest``).
        let digest: ContentDigest
        /// Boxed, so a list stays small: lists are copied on every load, and almost none has one.
        private let skippedBox: SkippedBox?

        init(traits: [ResolvedTrait], digest: ContentDigest, skipped: SkippedIdentifier? = nil) {
            self.traits = traits
            self.digest = digest
            self.skippedBox = skipped.map(SkippedBox.init)
        }

        /// No traits: what a removed identifier gets.
        static let empty = List(traits: [], digest: ContentDigest(combining: []))

        /// Set when the identifier uses a trait type the registry does not know (only a spec
        /// read with ``UnknownTraitPolicy/skipIdentifier`` has such lists): `traits` then lacks
        /// it, and a provider keeps the identifier as it is.
        var skipped: SkippedIdentifier? { skippedBox?.value }

        /// Whether both lists come from the same resolved entries, wherever they were written.
        func hasSameContent(as other: List) -> Bool {
            digest == other.digest
        }
    }

    /// Identifiers in document order.
    let order: [String]
    /// The lists, in the same order as `order`.
    let lists: [List]
    /// For each trait of each list, in list order, the value it sets if it is a
    /// ``PropertyTrait``: what the provider reads for every target it restyles, in one sweep
    /// through one buffer rather than from one buffer per identifier or from each resolved trait.
    let settings: [PropertyValue?]
    /// Where each list's settings start in `settings`, and where the last one ends.
    private let settingStarts: [Int]
    private let positions: [String: Int]
    /// The identifiers that use an unknown trait type, in document order. Found once: every load
    /// asks, and almost every resolution has none.
    let skipped: [SkippedIdentifier]

    /// The numbers of the type sequences of ``List/typeSequence``, by the shapes of their traits.
    private let sequenceNumbers: [[ResolvedTrait.Shape]: Int]

    init(order: [String], lists: [List]) {
        let positions = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        self.init(order: order, positions: positions, lists: lists)
    }

    /// `positions`: each identifier's first place in `order`, where the caller has them.
    init(order: [String], positions: [String: Int], lists: [List]) {
        precondition(order.count == lists.count, "one list per identifier")
        self.init(order: order, positions: positions, lists: lists, numbering: lists.indices, from: [[]: 0])
    }

    /// A resolution of the same identifiers as `base` (a theme's), whose lists are `base`'s but at
    /// the positions `changed`: it keeps `base`'s numbers, so only the changed lists are numbered.
    init(lists: [List], changed: some Sequence<Int>, of base: Resolution) {
        precondition(base.order.count == lists.count, "one list per identifier")
        self.init(
            order: base.order, positions: base.positions, lists: lists, numbering: changed, from: base.sequenceNumbers)
    }

    private init(
        order: [String], positions: [String: Int], lists: [List], numbering: some Sequence<Int>,
        from numbers: [[ResolvedTrait.Shape]: Int]
    ) {
        self.order = order
        self.positions = positions
        var numbers = numbers
        var lists = lists
        for position in numbering {
            let shapes = lists[position].traits.map(\.shape)
            if let known = numbers[shapes] {
                lists[position].typeSequence = known
            } else {
                lists[position].typeSequence = numbers.count
                numbers[shapes] = numbers.count
            }
        }
        self.lists = lists
        self.sequenceNumbers = numbers
        var settings: [PropertyValue?] = []
        let settingCount = lists.reduce(0) { total, list in list.traits.reduce(total) { $0 + $1.settings.count } }
        settings.reserveCapacity(settingCount)
        var starts: [Int] = []
        starts.reserveCapacity(lists.count + 1)
        for list in lists {
            starts.append(settings.count)
            for trait in list.traits { settings += trait.settings }
        }
        starts.append(settings.count)
        self.settings = settings
        self.settingStarts = starts
        self.skipped = lists.compactMap(\.skipped)
    }

    /// Where the settings of the list at `position` are in ``settings``.
    func settingsRange(at position: Int) -> Range<Int> {
        settingStarts[position]..<settingStarts[position + 1]
    }

    /// Calls `body` with `identifier`'s list and its settings; the empty list if the spec does
    /// not name it.
    func withList<Result, Failure: Error>(
        for identifier: String, _ body: (Resolution.List, UnsafeBufferPointer<PropertyValue?>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard let position = positions[identifier] else {
            return try body(.empty, UnsafeBufferPointer(start: nil, count: 0))
        }
        return try settings.withUnsafeBufferPointer { settings throws(Failure) in
            try body(lists[position], UnsafeBufferPointer(rebasing: settings[settingsRange(at: position)]))
        }
    }

    static let empty = Resolution(order: [], lists: [])

    /// The traits for `identifier`, if the spec names it.
    func list(for identifier: String) -> List? {
        positions[identifier].map { lists[$0] }
    }

    /// This resolution with every skipped identifier kept as it is in `current`: its list
    /// there, or left out where `current` has none, so its targets are not touched. Also the
    /// skipped identifiers. The one place where a load decides what a skipped identifier gets.
    func keepingSkipped(from current: Resolution) -> (resolution: Resolution, skipped: [SkippedIdentifier]) {
        let skipped = self.skipped
        guard !skipped.isEmpty else { return (self, []) }
        var order: [String] = []
        var kept: [List] = []
        order.reserveCapacity(self.order.count)
        kept.reserveCapacity(lists.count)
        for (identifier, list) in zip(self.order, lists) {
            if list.skipped == nil {
                order.append(identifier)
                kept.append(list)
            } else if let old = current.list(for: identifier) {
                order.append(identifier)
                kept.append(old)
            }
        }
        return (Resolution(order: order, lists: kept), skipped)
    }
}

/// A ``SkippedIdentifier`` behind one reference.
final class SkippedBox: Sendable {
    let value: SkippedIdentifier

    init(_ value: SkippedIdentifier) { self.value = value }
}

/// A decoded trait, the entry it came from, and its registered type. A class: the provider
/// passes resolved traits around for every target it restyles, and a reference is cheaper to
/// pass than the existential, location and type it holds.
final class ResolvedTrait: Sendable {
    let trait: any Trait
    let location: SourceLocation
    let type: TraitType
    /// What it sets, one per plan step (see ``TraitType/settings(of:)``), so the provider need
    /// not open the trait.
    let settings: [PropertyValue?]
    /// What a plan for it depends on besides the target's class.
    let shape: Shape

    /// What a plan for a trait depends on besides the target's class: its registered type, and
    /// for a named-property trait (`Set`) the names of the properties it sets and the kinds of
    /// its values (whether a binding takes them).
    struct Shape: Hashable, Sendable {
        let type: ObjectIdentifier
        let names: [String]?
        let kinds: [PropertyValue.Kind]
    }

    init(_ decoded: DecodedTrait, location: SourceLocation, type: TraitType) {
        self.trait = decoded.trait
        self.location = location
        self.type = type
        self.settings = decoded.settings
        self.shape = Shape(
            type: ObjectIdentifier(type), names: decoded.names,
            kinds: decoded.names == nil ? [] : decoded.settings.compactMap { $0?.kind })
    }

    var typeName: String { type.name }

    /// Applies the trait to `object`; nil if `object` is not the trait's `Target`.
    func applyErased(to object: AnyObject) throws -> ErasedReversal? {
        try type.applyErased(trait, object)
    }
}
