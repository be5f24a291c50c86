package import Foundation

/// The example specs (`Specs/` of the repository), compiled into the binary so `livery demo` runs
/// anywhere: without a `Specs` folder it writes these into a fresh one. A test keeps them equal to
/// `Specs/`; after editing those files, copy them here.
package enum EmbeddedSpecs {
    /// File names and contents.
    package static let files: [(name: String, contents: String)] = [
        (
            "card.yaml",
            #"""
            # yaml-language-server: $schema=../schema/livery-spec.schema.json
            # A themed card: a surface with a title, a body and an action button.
            include: [palette.yaml]

            specs:
              screen:
                - { type: BackgroundColor, color: "@colors.background" }

              text.base:
                - { type: Font, name: "@type.family", size: "@type.body", weight: regular, color: "@colors.text" }

              card:
                - { type: BackgroundColor, color: "@colors.surface" }
                - { type: CornerRadius, radius: "@metrics.radius" }
                - { type: Border, color: "@colors.separator", width: 1 }
                - type: DropShadow
                  color: "~alpha(@colors.shadow, 0.3)"
                  offset: { width: 0, height: 2 }
                  opacity: 0.5
                  radius: 6
                - { type: Padding, insets: "@metrics.padding" }

              card.title:
                - { type: Inherit, traits: [text.base] }
                - { type: Font, size: "@type.title", weight: semibold }

              card.body:
                - { type: Inherit, traits: [text.base] }
                - { type: TextColor, color: "@colors.secondaryText" }

              card.button:
                - { type: BackgroundColor, color: "@colors.accent" }
                - { type: CornerRadius, radius: 8 }
                - { type: Font, name: "@type.family", size: "@type.body", weight: bold, color: "#FFFFFF" }
                - { type: Padding, insets: [8, 14, 8, 14] }

              card.badge:
                - { type: BackgroundColor, color: "~mix(@colors.accent, @colors.surface, 0.2)" }
                - { type: TextColor, color: "@colors.accent" }
                - { type: CornerRadius, radius: 6 }

            """#
        ),
        (
            "palette.yaml",
            #"""
            # yaml-language-server: $schema=../schema/livery-spec.schema.json
            # Colours and type shared by every spec file; themes override them.
            variables:
              colors:
                accent: "#0A84FF"
                background: "#F2F2F7"
                surface: "#FFFFFF"
                text: "#1C1C1E"
                secondaryText: "#6C6C70"
                separator: "#D1D1D6"
                shadow: "#000000"
              type:
                family: Inter
                body: 15
                title: 18
              metrics:
                radius: 12
                padding: { top: 12, left: 16, bottom: 12, right: 16 }

            themes:
              dark:
                colors:
                  accent: "#64D2FF"
                  background: "#000000"
                  surface: "#1C1C1E"
                  text: "#F2F2F7"
                  secondaryText: "#AEAEB2"
                  separator: "#38383A"

            """#
        ),
    ]

    /// Writes the files into `folder`, creating it.
    package static func write(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in files {
            try Data(file.contents.utf8).write(to: folder.appending(path: file.name), options: .withoutOverwriting)
        }
    }
}
