import Foundation

/// CSS Color 4's conversions (its section 18, "Sample code for color conversions") from the
/// spaces outside the sRGB family to gamma-encoded sRGB, 0…1 a channel, and the gamut check
/// that decides whether the result is a colour sRGB holds.
enum ColorConversion {
    typealias Triple = (Double, Double, Double)

    /// CIE Lab (D50) → XYZ (D50) → Bradford → XYZ (D65) → sRGB.
    static func sRGB(lab: Triple) -> Triple {
        let (lightness, a, b) = lab
        let kappa = 24389.0 / 27
        let epsilon = 216.0 / 24389
        let f1 = (lightness + 16) / 116
        let f0 = a / 500 + f1
        let f2 = f1 - b / 200
        let x = pow(f0, 3) > epsilon ? pow(f0, 3) : (116 * f0 - 16) / kappa
        let y = lightness > kappa * epsilon ? pow(f1, 3) : lightness / kappa
        let z = pow(f2, 3) > epsilon ? pow(f2, 3) : (116 * f2 - 16) / kappa
        let white = (0.3457 / 0.3585, 1.0, (1.0 - 0.3457 - 0.3585) / 0.3585)
        let d50 = (x * white.0, y * white.1, z * white.2)
        return encoded(linear: multiply(xyzD65ToLinearSRGB, multiply(bradfordD50ToD65, d50)))
    }

    /// OKLab → LMS (cubed) → XYZ (D65) → sRGB.
    static func sRGB(oklab: Triple) -> Triple {
        let lms = multiply(oklabToLMS, oklab)
        let cubed = (pow(lms.0, 3), pow(lms.1, 3), pow(lms.2, 3))
        return encoded(linear: multiply(xyzD65ToLinearSRGB, multiply(lmsToXYZD65, cubed)))
    }

    /// Display P3 (sRGB's transfer curve, P3 primaries, D65) → XYZ (D65) → sRGB.
    static func sRGB(displayP3 p3: Triple) -> Triple {
        let linear = (decode(p3.0), decode(p3.1), decode(p3.2))
        return encoded(linear: multiply(xyzD65ToLinearSRGB, multiply(linearP3ToXYZD65, linear)))
    }

    /// `rgb` clamped to 0…1 if every channel is within half an 8-bit step of it (so it rounds
    /// to the same byte as a colour inside the gamut would); nil when it lies outside.
    static func inGamut(_ rgb: Triple) -> Triple? {
        let slack = 0.5 / 255
        func inside(_ channel: Double) -> Bool { channel.isFinite && channel >= -slack && channel <= 1 + slack }
        guard inside(rgb.0), inside(rgb.1), inside(rgb.2) else { return nil }
        func clamped(_ channel: Double) -> Double { min(1, max(0, channel)) }
        return (clamped(rgb.0), clamped(rgb.1), clamped(rgb.2))
    }

    // MARK: Matrices (CSS Color 4, section 18)

    private typealias Matrix = (Triple, Triple, Triple)

    private static let bradfordD50ToD65: Matrix = (
        (0.955473421488075, -0.02309845494876471, 0.06325924320057072),
        (-0.0283697093338637, 1.0099953980813041, 0.021041441191917323),
        (0.012314014864481998, -0.020507649298898964, 1.330365926242124)
    )
    private static let xyzD65ToLinearSRGB: Matrix = (
        (12831.0 / 3959, -329.0 / 214, -1974.0 / 3959),
        (-851781.0 / 878810, 1648619.0 / 878810, 36519.0 / 878810),
        (705.0 / 12673, -2585.0 / 12673, 705.0 / 667)
    )
    private static let linearP3ToXYZD65: Matrix = (
        (608311.0 / 1250200, 189793.0 / 714400, 198249.0 / 1000160),
        (35783.0 / 156275, 247089.0 / 357200, 198249.0 / 2500400),
        (0, 32229.0 / 714400, 5220557.0 / 5000800)
    )
    private static let oklabToLMS: Matrix = (
        (1, 0.3963377773761749, 0.2158037573099136),
        (1, -0.1055613458156586, -0.0638541728258133),
        (1, -0.0894841775298119, -1.2914855480194092)
    )
    private static let lmsToXYZD65: Matrix = (
        (1.2268798758459243, -0.5578149944602171, 0.2813910456659647),
        (-0.0405757452148008, 1.1122868032803170, -0.0717110580655164),
        (-0.0763729366746601, -0.4214933324022432, 1.5869240198367816)
    )

    private static func multiply(_ m: Matrix, _ v: Triple) -> Triple {
        (
            m.0.0 * v.0 + m.0.1 * v.1 + m.0.2 * v.2,
            m.1.0 * v.0 + m.1.1 * v.1 + m.1.2 * v.2,
            m.2.0 * v.0 + m.2.1 * v.1 + m.2.2 * v.2
        )
    }

    // MARK: sRGB's transfer curve, sign-preserving as CSS Color 4 writes it

    /// Linear-light sRGB → gamma-encoded sRGB.
    static func encoded(linear: Triple) -> Triple { (encode(linear.0), encode(linear.1), encode(linear.2)) }

    private static func encode(_ x: Double) -> Double {
        let magnitude = abs(x)
        let value = magnitude > 0.0031308 ? 1.055 * pow(magnitude, 1 / 2.4) - 0.055 : 12.92 * magnitude
        return x < 0 ? -value : value
    }

    private static func decode(_ x: Double) -> Double {
        let magnitude = abs(x)
        let value = magnitude <= 0.04045 ? magnitude / 12.92 : pow((magnitude + 0.055) / 1.055, 2.4)
        return x < 0 ? -value : value
    }
}
