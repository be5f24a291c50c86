import Livery

/// A spec styling "box" with a corner radius: the radius tells test specs apart.
func bundle(radius: Int) -> String {
    #"{"specs": {"box": [{"type": "CornerRadius", "radius": \#(radius)}]}}"#
}

/// The radius a test spec gives "box", or -1.
func radius(_ spec: Spec) -> Int {
    (spec.traits(for: "box").first as? CornerRadius).map { Int($0.radius) } ?? -1
}
