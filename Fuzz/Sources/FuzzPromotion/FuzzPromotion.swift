import Foundation
import FuzzSupport
import Livery
@_spi(LiveryInternal) import LiveryHTTP

/// The body of `POST /v1/environments/{to}/promotions` read as the route reads it
/// (`JSONDecoder` into `PromotionRequest`, whose `rollout` is a `RolloutShare`), and its etag
/// read by `EntityTag.opaque(of:)`.
///
/// Besides not crashing: a share is 0…10,000 basis points, prints (`Rollout.percentText`) and
/// reads back to itself, a share given as text is the one `?rollout=` reads from the same
/// text, and one given as a number is that number of percent to the basis point; an etag's
/// opaque part is its text without `W/` and one pair of quotes, and is its own opaque part when
/// quoted again. The first two bytes, as a number of basis points, print and read back too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if count >= 2 {
        let points = Int(data[data.startIndex]) << 8 | Int(data[data.startIndex + 1])
        checkPrinted(points % 10_001)
    }
    let body: PromotionRequest
    do {
        body = try JSONDecoder().decode(PromotionRequest.self, from: data)
    } catch {
        return 0  // the route answers 400 with the decoder's message
    }
    if let share = body.rollout { checkShare(share, in: data) }
    if let etag = body.etag {
        let opaque = EntityTag.opaque(of: etag)
        fuzzCheck(opaque.count <= etag.count, "opaque part \(opaque.debugDescription) of \(etag.debugDescription)")
        fuzzCheck(
            EntityTag.opaque(of: "\"\(opaque)\"") == opaque, "\(opaque.debugDescription) quoted reads back otherwise")
    }
    return 0
}

/// `points` prints as a percentage that reads back as `points`.
func checkPrinted(_ points: Int) {
    let text = Rollout.percentText(points)
    fuzzCheck(Rollout.basisPoints(parsing: text) == points, "\(points) printed as \(text) reads back otherwise")
}

/// The share agrees with the body's `rollout` value.
func checkShare(_ share: RolloutShare, in data: Data) {
    fuzzCheck((0...10_000).contains(share.basisPoints), "a share of \(share.basisPoints) basis points")
    checkPrinted(share.basisPoints)
    let tree: SpecNode
    do {
        tree = try SpecNode.parse(data, format: .json, source: "<body>")
    } catch {
        return  // Livery's strict reader refuses it (a duplicate key, say): no reference
    }
    switch tree["rollout"]?.value {
    case .string(let text):
        fuzzCheck(RolloutShare(query: text) == share, "the share \(text.debugDescription) reads otherwise as a query")
    case .int(let number):
        fuzzCheck(Double(number) * 100 == Double(share.basisPoints), "\(number)% read as \(share.basisPoints) bp")
    case .double(let percent):
        fuzzCheck(abs(percent * 100 - Double(share.basisPoints)) < 0.5, "\(percent)% read as \(share.basisPoints) bp")
    default:
        fuzzCheck(false, "a share read from \(tree["rollout"]?.kindDescription ?? "nothing")")
    }
}
