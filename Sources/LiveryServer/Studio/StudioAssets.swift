/// The files of Livery Studio (HTML, CSS, JavaScript modules), compiled into the daemon as the
/// browser client is (Package.swift embeds `Studio/Page` in code), so a `livery` built by any
/// package serves the page with no file beside the executable, and a request can only ever
/// name one of these, never a path on disk.
enum StudioAssets {
    /// The files by their path below `/studio/`. SwiftPM names each embedded file by its base
    /// name alone, so the paths are written here; a test checks every file of the folder is
    /// listed.
    static let files: [String: EmbeddedAsset] = [
        "index.html": EmbeddedAsset(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8"),
        "studio.css": EmbeddedAsset(bytes: PackageResources.studio_css, contentType: "text/css; charset=utf-8"),
        "js/api.js": script(PackageResources.api_js),
        "js/app.js": script(PackageResources.app_js),
        "js/changes.js": script(PackageResources.changes_js),
        "js/comparison.js": script(PackageResources.comparison_js),
        "js/diff.js": script(PackageResources.diff_js),
        "js/dom.js": script(PackageResources.dom_js),
        "js/editor.js": script(PackageResources.editor_js),
        "js/environments.js": script(PackageResources.environments_js),
        "js/files.js": script(PackageResources.files_js),
        "js/fleet.js": script(PackageResources.fleet_js),
        "js/history.js": script(PackageResources.history_js),
        "js/identifiers.js": script(PackageResources.identifiers_js),
        "js/palette.js": script(PackageResources.palette_js),
        "js/picker.js": script(PackageResources.picker_js),
        "js/preview.js": script(PackageResources.preview_js),
        "js/promotion.js": script(PackageResources.promotion_js),
        "js/rollout.js": script(PackageResources.rollout_js),
        "js/schedule.js": script(PackageResources.schedule_js),
        "js/signing.js": script(PackageResources.signing_js),
    ]

    private static func script(_ bytes: [UInt8]) -> EmbeddedAsset {
        EmbeddedAsset(bytes: bytes, contentType: EmbeddedAsset.javaScript)
    }
}
