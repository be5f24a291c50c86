import Livery
import LiveryHTTP

/// What a context evaluates to: the flags of one spec version under one variant, with the
/// protocol's reason and variant name. The same for every flag, so a bulk evaluation is one
/// outcome written out for each.
struct OFREPOutcome: Sendable {
    /// The version the values come from: the stable one, or a staged rollout's candidate.
    let snapshot: BundleSnapshot
    /// The flags of that version for the context.
    let flags: OFREPFlags.Variant
    /// `STATIC` (no theme), `TARGETING_MATCH` (a theme) or `SPLIT` (a rollout's cohort).
    let reason: String
    /// `default`, the theme, or `candidate`.
    let variant: String

    /// The outcome of `context` against `current` (the served bundle) and `candidate` (finds a
    /// rollout's candidate by its version): a client in a running rollout's cohort (by
    /// ``Rollout/includes(instance:)``, the rule every client applies) gets the candidate.
    ///
    /// - Throws: ``OFREPFailure`` `INVALID_CONTEXT` for a theme the spec does not define.
    init(
        _ context: OFREPContext, current: BundleSnapshot, candidate: (String) -> BundleSnapshot?
    ) throws(OFREPFailure) {
        var snapshot = current
        var split = false
        if let rollout = current.rollout, rollout.state == .running, let instance = context.targetingKey,
            rollout.includes(instance: instance), let found = candidate(rollout.candidate)
        {
            snapshot = found
            split = true
        }
        self.snapshot = snapshot
        guard let theme = context.theme else {
            flags = snapshot.flags.base
            reason = split ? "SPLIT" : "STATIC"
            variant = split ? "candidate" : "default"
            return
        }
        guard let themed = snapshot.flags.themes[theme] else {
            let known = snapshot.flags.themes.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
            throw OFREPFailure(
                .invalidContext,
                "unknown theme '\(theme)' in 'context.theme'; "
                    + (known.isEmpty ? "the spec defines no themes" : "expected \(known)"))
        }
        flags = themed
        reason = split ? "SPLIT" : "TARGETING_MATCH"
        variant = split ? "candidate" : theme
    }

    /// The bulk answer's entity tag: it changes with the version and with what the context
    /// evaluates to (its variant), and nothing else.
    var etag: EntityTag {
        EntityTag(of: "\(snapshot.etag.opaque)\n\(reason)\n\(variant)".utf8)
    }

    /// The evaluation of `key`, as JSON; `nil` for a key that is no flag here.
    func evaluation(of key: String) -> String? {
        guard let flag = flags.flags[key] else { return nil }
        return #"{"key":\#(Self.json(key)),"value":\#(flag.value),"reason":"\#(reason)","#
            + #""variant":\#(Self.json(variant)),"metadata":{"livery.source":\#(Self.json(flag.source)),"#
            + #""livery.version":\#(version)}}"#
    }

    /// Why `key` has no evaluation: not a flag, or the variables did not resolve.
    func failure(of key: String) -> OFREPFailure {
        if let failure = flags.failure {
            return OFREPFailure(.general, "the variables do not resolve for this context: \(failure)")
        }
        return OFREPFailure(
            .flagNotFound, "no flag '\(key)': flags are variables by dotted name and Set values as IDENTIFIER:NAME")
    }

    /// Every flag's evaluation, as the bulk answer's JSON, with the change notification at
    /// `events` (a path of this daemon) in `eventStreams`.
    func bulk(events: String) -> String {
        #"{"flags":["# + flags.keys.compactMap(evaluation(of:)).joined(separator: ",")
            + #"],"metadata":{"livery.version":\#(version)},"#
            + #""eventStreams":[{"type":"sse","endpoint":{"requestUri":\#(Self.json(events))}}]}"#
    }

    /// The version, as an entity tag shows it (quoted), as JSON.
    private var version: String { Self.json(snapshot.etag.description) }

    private static func json(_ text: String) -> String { SpecNode.text(text).canonicalJSON }
}
