extension JSONReader {
    /// Reads a number at `position` (a `-` or a digit): an integer that fits `Int` becomes
    /// ``SpecNode/Value/int(_:)``, any other number a finite ``SpecNode/Value/double(_:)``.
    mutating func readNumber(at location: SourceLocation) throws(SpecError) -> SpecNode.Value {
        let start = position
        let count = bytes.count
        var index = start
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
            guard index < count, Self.isDigit(bytes[index]) else {
                try rejectNonFinite(at: location)
                position = index
                throw unexpected("a digit after '-'")
            }
        }
        var isInteger = true
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < count, Self.isDigit(bytes[index]) {
                while index < count, Self.isDigit(bytes[index]) { index += 1 }
                throw SpecError(.syntax, at: location, "number \(numberText(start..<index)) has a leading zero")
            }
        } else {
            while index < count, Self.isDigit(bytes[index]) { index += 1 }
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < count, Self.isDigit(bytes[index]) else {
                position = index
                throw unexpected("a digit after the decimal point")
            }
            while index < count, Self.isDigit(bytes[index]) { index += 1 }
        }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < count, Self.isDigit(bytes[index]) else {
                position = index
                throw unexpected("a digit in the exponent")
            }
            while index < count, Self.isDigit(bytes[index]) { index += 1 }
        }
        position = index
        if isInteger, let integer = integerValue(start..<index) {
            return .int(integer)
        }
        if let double = exactDouble(start..<index) {
            return .double(double)
        }
        let text = numberText(start..<index)
        // The grammar above is a subset of what strtod reads, so this only fails by overflowing.
        guard let double = Double(text), double.isFinite else {
            throw SpecError(.invalidValue, at: location, "number \(text) is out of range")
        }
        return .double(double)
    }

    /// The integer the digits in `range` spell (with an optional `-`), or `nil` if it does not
    /// fit `Int`.
    private func integerValue(_ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        // Accumulate towards the sign so that Int.min is representable.
        var value = 0
        if range.upperBound - index <= 18 {
            // 18 digits cannot overflow: skip the checks on the common path.
            while index < range.upperBound {
                let digit = Int(bytes[index] &- UInt8(ascii: "0"))
                value = value &* 10 &+ (negative ? -digit : digit)
                index += 1
            }
            return value
        }
        while index < range.upperBound {
            let digit = Int(bytes[index] &- UInt8(ascii: "0"))
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative
                ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflow || overflow2 { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// The double a number in `range` (already checked against the grammar) spells, when one
    /// IEEE operation computes it exactly rounded: its significant digits make an integer of at
    /// most 2^53 and its power of ten is at most 10^22, so both are exact doubles and their
    /// product or quotient is rounded once, as strtod rounds (Clinger's fast path). Nil for
    /// any other number, which strtod reads.
    private func exactDouble(_ range: Range<Int>) -> Double? {
        var index = range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var significand: UInt64 = 0
        var digits = 0
        var exponent = 0
        var fraction = false
        while index < range.upperBound {
            let byte = bytes[index]
            if Self.isDigit(byte) {
                // Leading zeros are not significant; 19 digits cannot overflow a UInt64.
                if significand != 0 || byte != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 19 else { return nil }
                significand = significand &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                if fraction { exponent -= 1 }
            } else if byte == UInt8(ascii: ".") {
                fraction = true
            } else {
                break
            }
            index += 1
        }
        if index < range.upperBound {
            // The exponent: 'e' or 'E', a sign, digits.
            index += 1
            let exponentNegative = bytes[index] == UInt8(ascii: "-")
            if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            var written = 0
            while index < range.upperBound {
                written = written * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
                guard written <= 1_000 else { return nil }
                index += 1
            }
            exponent += exponentNegative ? -written : written
        }
        guard significand <= 1 << 53, abs(exponent) < Self.powersOfTen.count else { return nil }
        let power = Self.powersOfTen[abs(exponent)]
        let magnitude = exponent < 0 ? Double(significand) / power : Double(significand) * power
        return negative ? -magnitude : magnitude
    }

    /// 10^0 … 10^22, each exact in a double.
    private static let powersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }

    private func numberText(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
