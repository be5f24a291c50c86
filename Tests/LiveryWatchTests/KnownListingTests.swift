import Testing

@testable import LiveryWatch

/// When the fast path may re-read the last listing instead of listing the folder again. The
/// records are made up (no inotify); entries that appear are looked at in a real folder.
@Suite struct KnownListingTests {
    static let root: Int32 = 7
    let folder: TemporaryFolder
    let snapshot: FolderSnapshot
    let listing: KnownListing

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("card.yaml", "card: 1\n")
        try folder.makeFolder("sub")
        try folder.write("sub/b.yaml", "b: 1\n")
        snapshot = FolderScanner(root: folder.path, fileExtensions: ["yaml"]).scan()
        listing = try #require(KnownListing(snapshot, rootDescriptor: Self.root, fileExtensions: ["yaml"]))
    }

    private func survives(_ event: InotifyEvent, descriptor: Int32 = Self.root) -> Bool {
        listing.survives(InotifyRecord(descriptor: descriptor, event: event))
    }

    @Test func anAtomicSaveOfAListedFileKeepsIt() throws {
        #expect(survives(.created(".card.yaml.swp", isDirectory: false)))
        #expect(survives(.modified(".card.yaml.swp")))
        #expect(survives(.closedAfterWriting(".card.yaml.swp")))
        #expect(survives(.attributesChanged(".card.yaml.livery-1.tmp")))  // the daemon's fchmod
        #expect(survives(.movedOut(".card.yaml.swp", cookie: 1, isDirectory: false)))
        #expect(survives(.deleted(".card.yaml.swp", isDirectory: false)))
        // A visible temporary file that is not a spec file: a plain file, or gone already.
        try folder.write("card.yaml.tmp-1", "card: 2\n")
        #expect(survives(.created("card.yaml.tmp-1", isDirectory: false)))
        #expect(survives(.created("card.yaml.tmp-2", isDirectory: false)))
        #expect(survives(.modified("card.yaml.tmp-1")))
        #expect(survives(.closedAfterWriting("card.yaml.tmp-1")))
        #expect(survives(.attributesChanged("card.yaml.tmp-1")))
        #expect(survives(.movedOut("card.yaml.tmp-1", cookie: 1, isDirectory: false)))
        #expect(survives(.movedIn("card.yaml", cookie: 1, isDirectory: false)))
        #expect(survives(.deleted("card.yaml~", isDirectory: false)))
    }

    @Test func aWriteInPlaceOfAListedFileKeepsIt() {
        #expect(survives(.modified("card.yaml")))
        #expect(survives(.closedAfterWriting("card.yaml")))
    }

    @Test func aSpecFileThatAppearsOrGoesDropsIt() {
        #expect(!survives(.created("new.yaml", isDirectory: false)))
        #expect(!survives(.movedIn("new.yaml", cookie: 1, isDirectory: false)))
        #expect(!survives(.modified("new.yaml")))  // created before the listing, seen after it
        #expect(!survives(.deleted("card.yaml", isDirectory: false)))
        #expect(!survives(.movedOut("card.yaml", cookie: 1, isDirectory: false)))  // vim's first step
        #expect(!survives(.created("card.yaml", isDirectory: false)))
    }

    @Test func aLinkThatAppearsDropsIt() throws {
        let elsewhere = try TemporaryFolder()
        try elsewhere.write("x.yaml", "x: 1\n")
        try folder.link("themes", to: elsewhere.path)  // a folder of specs, under a name that is not one
        #expect(!survives(.created("themes", isDirectory: false)))
        #expect(!survives(.movedIn("themes", cookie: 1, isDirectory: false)))
        try folder.remove("card.yaml")
        try folder.link("card.yaml", to: elsewhere.at("x.yaml"))  // a link renamed over a listed file
        #expect(!survives(.movedIn("card.yaml", cookie: 1, isDirectory: false)))
    }

    @Test func foldersAttributesSubfoldersAndLostEventsDropIt() {
        #expect(!survives(.created(".hidden", isDirectory: true)))
        #expect(!survives(.created("themes", isDirectory: true)))
        #expect(!survives(.movedIn("card.yaml", cookie: 1, isDirectory: true)))
        #expect(!survives(.deleted(".cache", isDirectory: true)))
        #expect(!survives(.attributesChanged("card.yaml")))
        #expect(!survives(.attributesChanged(nil)))
        #expect(!survives(.folderDeleted))
        #expect(!survives(.folderMoved))
        #expect(!survives(.watchRemoved))
        #expect(!survives(.unmounted))
        #expect(!survives(.queueOverflowed, descriptor: -1))
        #expect(!survives(.other(mask: 0, name: "card.yaml")))
        #expect(!survives(.modified("b.yaml"), descriptor: Self.root + 1))  // in sub/
        #expect(!survives(.modified("card.yaml"), descriptor: Self.root + 1))
    }

    @Test func onlyAPlainWatchedFolderIsKept() throws {
        var linked = snapshot
        linked.hasLinks = true
        #expect(KnownListing(linked, rootDescriptor: Self.root, fileExtensions: ["yaml"]) == nil)
        var troubled = snapshot
        troubled.problems = [WatchError(.io, path: folder.at("x.yaml"), "cannot inspect")]
        #expect(KnownListing(troubled, rootDescriptor: Self.root, fileExtensions: ["yaml"]) == nil)
        let missing = FolderSnapshot(state: .unavailable(WatchError(.folderMissing, path: folder.path, "missing")))
        #expect(KnownListing(missing, rootDescriptor: Self.root, fileExtensions: ["yaml"]) == nil)
        #expect(KnownListing(snapshot, rootDescriptor: nil, fileExtensions: ["yaml"]) == nil)
        // A link anywhere makes a listing that is never kept.
        try folder.link("sub/up", to: "..")
        let withLink = FolderScanner(root: folder.path, fileExtensions: ["yaml"]).scan()
        #expect(withLink.hasLinks)
        #expect(KnownListing(withLink, rootDescriptor: Self.root, fileExtensions: ["yaml"]) == nil)
    }
}
