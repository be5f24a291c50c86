import HTTPTypes
import LiveryHTTP

/// The header fields of Livery's own protocol.
extension HTTPField.Name {
    /// `Livery-Client`: who sends a request, and what it applied.
    static let liveryClient = HTTPField.Name(LiveryClientHeader.fieldName)!  // a valid token
    /// `Livery-Round`: the version signal's next round (``LiveryHTTP/SignalRound``).
    static let liveryRound = HTTPField.Name(SignalRound.fieldName)!  // a valid token
    /// `Livery-Bypass-Approval: true`: an `admin` key writes a protected environment without a
    /// change request (``ChangeBook``).
    static let bypassApproval = HTTPField.Name("Livery-Bypass-Approval")!  // a valid token
}
