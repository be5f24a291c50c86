/// The last listing of the folder, for as long as the events since show that it still holds.
///
/// The fast path re-reads the files of this listing rather than list the folder again when it
/// can: listing takes the folder's lock (`readdir`), which a writer's `rename()` holds until it
/// is done with the file it replaced, so a listing waits for the rename to return (≈ 0.2 ms in
/// figure 1 of the benchmarks), while opening the files by name does not.
///
/// It holds only in the plainest case, and any doubt drops it: a folder without links, where
/// every event since the listing came from the top folder and was one of an editor's steps:
///
/// - a listed spec file written, or a plain file renamed into its place;
/// - a hidden entry that is not a folder (the scan skips those), or a file that is not a spec
///   file (an editor's `card.yaml.tmp-1234`) written, renamed, deleted, or its permissions
///   set. Such a file that appears is looked at (`lstat`) when its event is handled, after it
///   appeared: a link could lead to a folder of spec files, so only a plain file, or one
///   already gone, keeps the listing.
///
/// Anything else — a spec file created, deleted, moved out or moved in under a new name, a
/// folder event, an attribute change of a spec file or of the folder, an event in a subfolder,
/// a lost event — means the folder must be listed again. The settled scan lists the folder
/// whatever happens, once the burst is over.
struct KnownListing {
    /// The listing.
    let snapshot: FolderSnapshot
    private let root: String
    private let rootDescriptor: Int32
    private let topLevelFiles: Set<String>
    private let fileExtensions: Set<String>

    /// The listing of `snapshot`, or nil if it is not one to reuse: the folder was unavailable,
    /// had problems or links, or its top folder is not watched (`rootDescriptor` nil).
    init?(_ snapshot: FolderSnapshot, rootDescriptor: Int32?, fileExtensions: Set<String>) {
        guard case .present = snapshot.state, let root = snapshot.root, snapshot.problems.isEmpty,
            !snapshot.hasLinks, let rootDescriptor
        else { return nil }
        self.snapshot = snapshot
        self.root = root
        self.rootDescriptor = rootDescriptor
        self.topLevelFiles = Set(snapshot.files.lazy.map(\.relativePath).filter { !$0.contains("/") })
        self.fileExtensions = fileExtensions
    }

    /// Whether the listing still holds after `record`.
    func survives(_ record: InotifyRecord) -> Bool {
        guard record.descriptor == rootDescriptor else { return false }
        switch record.event {
        case .modified(let name), .closedAfterWriting(let name):
            // Only a regular file of the top folder is written there (a write through a link is
            // reported in its target's folder).
            return isHidden(name) || !isContent(name) || topLevelFiles.contains(name)
        case .movedIn(let name, _, isDirectory: false):
            return isHidden(name) || ((!isContent(name) || topLevelFiles.contains(name)) && isPlainFileOrGone(name))
        case .created(let name, isDirectory: false):
            return isHidden(name) || (!isContent(name) && isPlainFileOrGone(name))
        case .movedOut(let name, _, isDirectory: false), .deleted(let name, isDirectory: false),
            .attributesChanged(let name?):
            // Not a link: the listing had none, and a link made since would have dropped it.
            // (The daemon sets its temporary file's permissions before writing it.)
            return isHidden(name) || !isContent(name)
        default:
            return false
        }
    }

    private func isHidden(_ name: String) -> Bool { name.hasPrefix(".") }

    private func isContent(_ name: String) -> Bool {
        FolderScanner.isContent(name, fileExtensions: fileExtensions)
    }

    private func isPlainFileOrGone(_ name: String) -> Bool {
        switch FileSystem.status(of: FileSystem.join(root, name), followingLinks: false) {
        case .success(let status): status.kind == .regular
        case .failure(let error): error.isVanished
        }
    }
}
