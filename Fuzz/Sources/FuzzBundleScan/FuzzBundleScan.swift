/// Bytes → the daemon's raw reader of plain bundle requests (`BundleRequestScan`), which runs
/// on every byte a client sends before the HTTP parser does, then the admission rule on the
/// `Host` and `Authorization` values it found. Checked against their contracts
/// (``BundleScanChecks``, ``AdmissionChecks``), not only for crashes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    BundleScanChecks.check(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
