/// The box-drawing characters of a border: heavy for a width of 2 or more, rounded corners for a
/// corner radius above zero (Unicode has no rounded heavy corners, so heavy wins).
struct BoxCharacters {
    let horizontal: Character
    let vertical: Character
    /// Top left, top right, bottom left, bottom right.
    let corners: [Character]

    init(heavy: Bool, rounded: Bool) {
        if heavy {
            (horizontal, vertical, corners) = ("━", "┃", ["┏", "┓", "┗", "┛"])
        } else if rounded {
            (horizontal, vertical, corners) = ("─", "│", ["╭", "╮", "╰", "╯"])
        } else {
            (horizontal, vertical, corners) = ("─", "│", ["┌", "┐", "└", "┘"])
        }
    }
}
