import LiveryHTTP
import Testing

@Suite struct AcceptEncodingTests {
    @Test(arguments: [
        (["gzip"], true),
        (["gzip, deflate, br"], true),
        (["br", "GZip;q=0.5"], true),
        (["x-gzip"], true),
        (["*"], true),
        (["deflate, *;q=0.1"], true),
        (["gzip;q=0"], false),
        (["gzip;q=0, *"], false),
        (["*;q=0"], false),
        (["identity"], false),
        (["deflate, br"], false),
        ([], false),
        (["gzip;q=2"], false),
        (["gzip;q=abc"], false),
        ([""], false),
    ])
    func gzipIsAcceptedWhenTheHeaderSaysSo(lines: [String], accepted: Bool) {
        #expect(AcceptEncoding.acceptsGzip(headerValues: lines) == accepted, "\(lines)")
    }
}
