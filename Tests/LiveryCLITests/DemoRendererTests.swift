import Foundation
import Livery
import LiveryCLI
import LiveryTesting
import LiveryWatch
import Testing

/// The demo's frames, drawn from real specs applied to the real targets: layout, colours,
/// borders, hidden parts and the two bottom lines.
@Suite struct DemoRendererTests {
    static func color(_ text: String) throws -> Color { try Color(parsing: text) }

    /// A session with `Specs/` applied, as the demo has after its first load.
    static func session() throws -> DemoSession {
        let session = DemoSession(folder: "Specs", serverURL: "http://127.0.0.1:7878")
        let spec = try Spec(directory: RepositorySpecs.folder)
        #expect(session.handle(.specs(.loaded(spec, ContentHash(value: 0xabcd_ef01_2345_6789)))) == .proceed)
        return session
    }

    /// The cell where `text` first appears in a frame.
    static func position(of text: String, in frame: Canvas) throws -> (x: Int, y: Int) {
        let rows = frame.text()
        let y = try #require(
            rows.firstIndex { $0.contains(text) }, "'\(text)' is not in the frame:\n\(rows.joined(separator: "\n"))")
        let range = try #require(rows[y].range(of: text))
        return (rows[y].distance(from: rows[y].startIndex, to: range.lowerBound), y)
    }

    @Test func drawsTheCardInTheColoursOfTheSpecs() throws {
        let frame = try Self.session().frame(width: 100, height: 40)
        let surface = try Self.color("#FFFFFF")
        #expect(frame.style(x: 0, y: 1)?.background == (try Self.color("#F2F2F7")))
        #expect(frame.text()[0].hasPrefix(" livery demo · edit Specs/*.yaml, or livery push them "))

        let title = try Self.position(of: "Livery", in: frame)
        #expect(
            frame.style(x: title.x, y: title.y)
                == TerminalStyle(foreground: try Self.color("#1C1C1E"), background: surface, weight: .bold))
        let body = try Self.position(of: "Edit a spec", in: frame)
        #expect(
            frame.style(x: body.x, y: body.y)
                == TerminalStyle(foreground: try Self.color("#6C6C70"), background: surface))
        let button = try Self.position(of: "Try it", in: frame)
        #expect(
            frame.style(x: button.x, y: button.y)
                == TerminalStyle(foreground: .white, background: try Self.color("#0A84FF"), weight: .bold))
        #expect(frame.character(x: button.x, y: button.y - 1) == "▄")  // padding drawn as half blocks
        let badge = try Self.position(of: " live ▌", in: frame)
        #expect(badge.y == title.y)
        let badgeFill = Color(red: 206, green: 230, blue: 255)  // ~mix(#0A84FF, #FFFFFF, 0.2)
        #expect(
            frame.style(x: badge.x, y: badge.y)
                == TerminalStyle(foreground: try Self.color("#0A84FF"), background: badgeFill, weight: .bold))
        #expect(frame.character(x: badge.x - 1, y: badge.y) == "▐")  // corner radius 6: rounded ends

        // Radius 12 and a 1-point border: rounded light box lines in the separator colour.
        let corner = try Self.position(of: "╭", in: frame)
        #expect(frame.style(x: corner.x + 1, y: corner.y)?.foreground == (try Self.color("#D1D1D6")))
        #expect(frame.text().contains { $0.contains("Inter 18 semibold · radius 12") })

        #expect(
            frame.text()[38].hasPrefix(
                " theme: default │ specs: abcdef01 │ push: http://127.0.0.1:7878 │ t: next theme  q: quit"))
        #expect(frame.text()[39].allSatisfy { $0 == " " })
        let lines = frame.lines().joined()
        #expect(lines.contains("38;2;28;28;30;48;2;255;255;255m"))
    }

    @Test func theDropShadowShadesTheRowBelowTheCard() throws {
        let session = try Self.session()
        var frame = session.frame(width: 100, height: 40)
        let corner = try Self.position(of: "╰", in: frame)
        // ~alpha(#000000, 0.3) at opacity 0.5 over #F2F2F7; offset 2 points down: one row.
        let shade = Color(red: 205, green: 205, blue: 210)
        #expect(frame.style(x: corner.x, y: corner.y + 1)?.background == shade)
        #expect(frame.style(x: corner.x, y: corner.y + 2)?.background == (try Self.color("#F2F2F7")))

        session.scene.card.shadowOpacity = 0
        frame = session.frame(width: 100, height: 40)
        #expect(frame.style(x: corner.x, y: corner.y + 1)?.background == (try Self.color("#F2F2F7")))
    }

    @Test func theThemeKeyCyclesDefaultDarkDefault() throws {
        let session = try Self.session()
        #expect(session.handle(.key(UInt8(ascii: "t"))) == .proceed)
        #expect(session.status.theme == "dark")
        var frame = session.frame(width: 100, height: 40)
        var title = try Self.position(of: "Livery", in: frame)
        #expect(frame.style(x: title.x, y: title.y)?.background == (try Self.color("#1C1C1E")))
        #expect(frame.text()[38].hasPrefix(" theme: dark │"))

        #expect(session.handle(.key(UInt8(ascii: "t"))) == .proceed)
        #expect(session.status.theme == nil)
        frame = session.frame(width: 100, height: 40)
        title = try Self.position(of: "Livery", in: frame)
        #expect(frame.style(x: title.x, y: title.y)?.background == .white)
    }

    @Test(arguments: [UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03, 0x04])
    func quitKeysEndTheSession(key: UInt8) throws {
        #expect(try Self.session().handle(.key(key)) == .quit)
    }

    @Test func otherKeysAndResizesChangeNothing() throws {
        let session = try Self.session()
        let before = session.frame(width: 100, height: 40)
        #expect(session.handle(.key(UInt8(ascii: "x"))) == .proceed)
        #expect(session.handle(.resize) == .proceed)
        #expect(session.frame(width: 100, height: 40).lines() == before.lines())
        #expect(session.handle(.quit) == .quit)
    }

    @Test func aRejectedSpecShowsItsErrorWhileTheLastGoodLookStays() throws {
        let session = try Self.session()
        let good = session.frame(width: 100, height: 40)
        let folder = try RepositorySpecs.copy()
        try folder.write("specs/card.yaml", "specs:\n  card:\n    - { type: CornerRadius, radius: -3 }\n")
        let error = try #require(throws: SpecError.self) { try Spec(directory: folder.url("specs")) }
        #expect(session.handle(.specs(.failed(error))) == .proceed)

        let frame = session.frame(width: 100, height: 40)
        #expect(
            frame.text()[39].hasPrefix(
                " Specs/card.yaml:3:37: error: 'radius' of trait CornerRadius: -3.0 must be at least 0"))
        #expect(frame.style(x: 1, y: 39)?.background == Color(red: 179, green: 38, blue: 30))
        #expect(Array(frame.lines().prefix(38)) == Array(good.lines().prefix(38)))
        #expect(frame.text()[38].contains("specs: abcdef01"))

        let fixed = try Spec(directory: RepositorySpecs.folder)
        #expect(session.handle(.specs(.loaded(fixed, ContentHash(value: 0x1234_5678_0000_0000)))) == .proceed)
        #expect(session.status.error == nil)
        #expect(session.frame(width: 100, height: 40).text()[38].contains("specs: 12345678"))
    }

    @Test(arguments: [
        (width: 1.0, radius: 12.0, corner: "╭" as Character?),
        (width: 1.0, radius: 0.0, corner: "┌"),
        (width: 2.0, radius: 12.0, corner: "┏"),
        (width: 0.0, radius: 12.0, corner: nil),
    ])
    func bordersFollowWidthAndRadius(width: Double, radius: Double, corner: Character?) throws {
        let session = try Self.session()
        session.scene.card.borderWidth = width
        session.scene.card.cornerRadius = radius
        let text = session.frame(width: 100, height: 40).text().joined()
        for box: Character in ["╭", "┌", "┏"] {
            #expect(text.contains(box) == (box == corner), "corner \(box)")
        }
    }

    @Test func hiddenPartsAreNotDrawn() throws {
        let session = try Self.session()
        session.scene.badge.isHidden = true
        session.scene.button.isHidden = true
        var text = session.frame(width: 100, height: 40).text().joined()
        #expect(!text.contains("live ▌"))
        #expect(!text.contains("Try it"))
        #expect(text.contains("Livery"))
        session.scene.card.isHidden = true
        text = session.frame(width: 100, height: 40).text().joined()
        #expect(!text.contains("Livery"))
    }

    @Test func longErrorsAreClippedAndExtraErrorsCounted() throws {
        let session = try Self.session()
        session.scene.card.isHidden = false
        let status = DemoStatus(error: String(repeating: "x", count: 80) + "\nsecond")
        let frame = DemoRenderer.render(session.scene, status: status, width: 40, height: 12)
        #expect(frame.text()[11] == " " + String(repeating: "x", count: 38) + "…")
        let wide = DemoRenderer.render(
            session.scene, status: DemoStatus(error: "a.yaml:1:1: error: one\nb.yaml:1:1: error: two"), width: 60,
            height: 12)
        #expect(wide.text()[11].hasPrefix(" a.yaml:1:1: error: one (+1 more)"))
    }

    @Test func aTerminalTooSmallGetsANotice() throws {
        let frame = try Self.session().frame(width: 20, height: 5)
        #expect(frame.text()[0] == "terminal too small f")
    }
}
