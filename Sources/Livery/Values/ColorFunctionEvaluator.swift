/// Evaluates one ``ColorFunction`` expression: parses calls, follows references, does the arithmetic.
struct ColorFunctionEvaluator {
    /// Errors on their way out of nested evaluations, which outer levels must not wrap again.
    enum Escaping: Error {
        /// The caller's resolver threw this; it reaches the caller unchanged.
        case resolver(any Error)
        /// A complete message: the value of a reference was bad, or references form a cycle.
        case final(ValueError)
    }

    /// The functions, under every name they are known by.
    private enum Function {
        case alpha, mix

        init?(name: Substring) {
            switch name {
            case "alpha", "color.alpha": self = .alpha
            case "mix", "color.mix": self = .mix
            default: return nil
            }
        }

        /// The parameters, for messages.
        var parameters: [String] {
            switch self {
            case .alpha: ["colour", "alpha"]
            case .mix: ["colour", "colour", "part"]
            }
        }
    }

    /// Calls and references deeper than this are refused rather than risking the stack.
    static let maximumDepth = 64

    private let resolve: (String) throws -> String
    /// The references being followed, outermost first, to spell out a cycle.
    private var references: [String] = []
    private var depth = 0

    init(resolve: @escaping (String) throws -> String) {
        self.resolve = resolve
    }

    /// The colour of a trimmed expression.
    mutating func color(_ text: Substring) throws -> Color {
        switch text.first {
        case "~":
            return try nested { (evaluator: inout Self) in try evaluator.call(text) }
        case "@":
            return try following(text) { (evaluator: inout Self, value) in try evaluator.color(value) }
        default:
            return try Color(parsing: String(text))
        }
    }

    /// A number 0...1 (or a percentage), possibly through references; `name` names it in messages.
    private mutating func fraction(_ text: Substring, name: String) throws -> Double {
        guard text.first == "@" else { return try ValueText.unitFraction(text, name: name) }
        return try following(text) { (evaluator: inout Self, value) in try evaluator.fraction(value, name: name) }
    }

    /// Evaluates the value of the reference `text` with `body`; a ``ValueError`` about that value
    /// is prefixed with the reference, so the message says where the bad text came from.
    private mutating func following<Value>(
        _ text: Substring,
        _ body: (inout Self, Substring) throws -> Value
    ) throws -> Value {
        let path = String(text.dropFirst())
        let segments = path.split(separator: ".", omittingEmptySubsequences: false)
        let isNamePart = { (character: Character) in !character.isWhitespace && !"(),@~#".contains(character) }
        guard segments.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isNamePart) }) else {
            throw ValueError("invalid reference '\(text)': expected @name or @name.name…")
        }
        if let start = references.firstIndex(of: path) {
            let cycle = (references[start...] + [path]).map { "@" + $0 }.joined(separator: " -> ")
            throw Escaping.final(ValueError("reference cycle: \(cycle)"))
        }
        let value: String
        do {
            value = try resolve(path)
        } catch {
            throw Escaping.resolver(error)
        }
        references.append(path)
        defer { references.removeLast() }
        do {
            return try nested { (evaluator: inout Self) in try body(&evaluator, ValueText.trimmed(value[...])) }
        } catch let error as ValueError {
            throw Escaping.final(ValueError("\(text): \(error.message)"))
        }
    }

    /// Runs `body` one level deeper, refusing expressions nested beyond ``maximumDepth``.
    private mutating func nested<Value>(_ body: (inout Self) throws -> Value) throws -> Value {
        guard depth < Self.maximumDepth else {
            throw ValueError("colour expression nests deeper than \(Self.maximumDepth) calls and references")
        }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    /// The colour of a call, `text` starting with `~`.
    private mutating func call(_ text: Substring) throws -> Color {
        let open = text.firstIndex(of: "(") ?? text.endIndex
        let name = ValueText.trimmed(text[text.index(after: text.startIndex)..<open])
        guard let function = Function(name: name) else {
            throw ValueError(
                "unknown function '~\(name)': expected ~alpha(colour, alpha) or ~mix(colour, colour, part)"
            )
        }
        let callName = "~\(name)"
        let signature = "\(callName)(\(function.parameters.joined(separator: ", ")))"
        guard open < text.endIndex else {
            throw ValueError("missing arguments in '\(text)': expected \(signature)")
        }
        let arguments = try Self.arguments(of: text, from: open, callName: callName)
        guard arguments.count == function.parameters.count else {
            let found = arguments.isEmpty ? "none" : String(arguments.count)
            let parameters = function.parameters.joined(separator: ", ")
            throw ValueError("\(callName) takes \(function.parameters.count) arguments (\(parameters)), found \(found)")
        }
        switch function {
        case .alpha:
            var color = try self.color(arguments[0])
            color.alpha = ValueText.channel(fromFraction: try fraction(arguments[1], name: "alpha"))
            return color
        case .mix:
            let first = try self.color(arguments[0])
            let second = try self.color(arguments[1])
            let part = try fraction(arguments[2], name: "part")
            return Self.mix(first, second, part: part)
        }
    }

    /// The trimmed arguments of the call in `text` whose `(` is at `open`, split at the commas
    /// outside nested parentheses; the call must end `text`.
    private static func arguments(
        of text: Substring,
        from open: Substring.Index,
        callName: String
    ) throws(ValueError)
        -> [Substring]
    {
        var arguments: [Substring] = []
        var depth = 0
        var argumentStart = text.index(after: open)
        var index = open
        while index < text.endIndex {
            switch text[index] {
            case "(":
                depth += 1
            case ")":
                depth -= 1
                if depth == 0 {
                    arguments.append(ValueText.trimmed(text[argumentStart..<index]))
                    let rest = ValueText.trimmed(text[text.index(after: index)...])
                    if rest.first == ")" {
                        throw ValueError("unbalanced parentheses in '\(text)': unexpected ')'")
                    }
                    guard rest.isEmpty else {
                        throw ValueError("unexpected text '\(rest)' after the closing ')' of \(callName) in '\(text)'")
                    }
                    // `~alpha()` has no arguments, not one empty one.
                    return arguments == [""] ? [] : arguments
                }
            case "," where depth == 1:
                arguments.append(ValueText.trimmed(text[argumentStart..<index]))
                argumentStart = text.index(after: index)
            default:
                break
            }
            index = text.index(after: index)
        }
        throw ValueError("unbalanced parentheses in '\(text)': missing ')'")
    }

    /// `first * part + second * (1 - part)`, channel by channel including alpha, rounded to nearest.
    static func mix(_ first: Color, _ second: Color, part: Double) -> Color {
        func channel(_ a: UInt8, _ b: UInt8) -> UInt8 {
            let value = (Double(a) * part + Double(b) * (1 - part)).rounded()
            return UInt8(max(0, min(255, value)))
        }
        return Color(
            red: channel(first.red, second.red),
            green: channel(first.green, second.green),
            blue: channel(first.blue, second.blue),
            alpha: channel(first.alpha, second.alpha)
        )
    }
}
