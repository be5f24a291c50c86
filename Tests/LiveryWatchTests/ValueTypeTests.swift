import Livery
import Testing

@testable import LiveryWatch

@Suite struct ContentHashTests {
    /// Published FNV-1a 64 test vectors.
    @Test(arguments: [
        ("", 0xcbf2_9ce4_8422_2325 as UInt64), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8),
    ])
    func matchesFNV1a(text: String, expected: UInt64) {
        var hasher = FNV1a64()
        hasher.combine(text.utf8)
        #expect(hasher.hash.value == expected)
    }

    @Test func printsSixteenHexDigits() {
        #expect(ContentHash(value: 0xab).description == "00000000000000ab")
    }
}

@Suite struct WatchErrorTests {
    @Test func printsLikeACompiler() {
        let error = WatchError(.folderMissing, path: "/srv/specs", "the watched folder is missing")
        #expect(error.description == "/srv/specs: error: the watched folder is missing")
    }

    @Test func theWatchLimitErrorNamesTheSysctl() {
        let error = WatchError.watchLimitReached(path: "/srv/specs/a", limit: 8192)
        #expect(error.code == .watchLimitReached)
        #expect(error.message.contains("fs.inotify.max_user_watches (currently 8192)"))
    }

    @Test func aSystemCallFailureSaysWhyInLiverysWords() {
        let error = WatchError(.io, path: "/x", "cannot list folder", Errno(rawValue: 13))
        #expect(error.description == "/x: error: cannot list folder: permission denied")
    }
}

@Suite struct WatchConfigurationTests {
    @Test func defaultsMatchTheDocumentation() {
        let configuration = WatchConfiguration()
        #expect(configuration.settleWindow == .milliseconds(20))
        #expect(configuration.maximumSettleWindows == 10)
        #expect(configuration.rescanInterval == .seconds(1))
        #expect(configuration.fileExtensions == ["json", "yaml", "yml"])
    }

    @Test func extensionsAreLowercasedAndLimitsClamped() {
        let configuration = WatchConfiguration(
            settleWindow: .milliseconds(-5), maximumSettleWindows: 0, fileExtensions: ["YAML"])
        #expect(configuration.settleWindow == .zero)
        #expect(configuration.maximumSettleWindows == 1)
        #expect(configuration.fileExtensions == ["yaml"])
    }
}
