import Glibc
import Testing
import ToastRendering

/// Icon lookup by the Icon Theme Specification, against the tests' own themes
/// (Icons/, see its README) and Debian's Adwaita.
struct IconThemeTests {
  /// The file `name` resolves to, relative to Icons/.
  static func find(
    _ name: String, theme: String? = "Child", size: Int = 48, scale: Double = 1
  ) -> String? {
    iconLookup.find(name, theme: theme, size: size, scale: scale).map {
      String($0.path.dropFirst(iconsDirectory.count + 1))
    }
  }

  @Test func theSearchPathFollowsTheEnvironment() {
    let defaults = IconSearchPath(environment: ["HOME": "/home/ann"])
    #expect(
      defaults.themeDirectories == [
        "/home/ann/.local/share/icons", "/home/ann/.icons", "/usr/local/share/icons",
        "/usr/share/icons",
      ])
    #expect(defaults.fallbackDirectories.last == "/usr/share/pixmaps")
    let custom = IconSearchPath(environment: [
      "HOME": "/home/ann", "XDG_DATA_HOME": "/data",
      "XDG_DATA_DIRS": "/opt/share:relative:/usr/share",
    ])
    #expect(
      custom.themeDirectories == [
        "/data/icons", "/home/ann/.icons", "/opt/share/icons", "/usr/share/icons",
      ])
    // No home: only the system's directories.
    #expect(
      IconSearchPath(environment: [:]).themeDirectories == [
        "/usr/local/share/icons", "/usr/share/icons",
      ])
  }

  @Test func indexFilesAreReadWithTheSpecificationsDefaults() {
    let index = IconThemeIndex(
      parsing: """
        # A comment
        [Icon Theme]
        Name=Test
        Name[de]=Prüfung
        Inherits = Parent , hicolor,
        Directories=16x16/apps,scalable/apps,broken,missing-section,
        ScaledDirectories=16x16@2/apps

        [16x16/apps]
        Size=16
        Type=Fixed

        [scalable/apps]
        Size=16
        MinSize=8
        MaxSize=512
        Type=Scalable

        [broken]
        Size=huge

        [16x16@2/apps]
        Size=16
        Scale=2
        """)
    #expect(index.parents == ["Parent", "hicolor"])
    #expect(
      index.directories == [
        IconDirectory(path: "16x16/apps", size: 16, kind: .fixed),
        IconDirectory(
          path: "scalable/apps", size: 16, kind: .scalable, minimumSize: 8, maximumSize: 512),
        IconDirectory(path: "16x16@2/apps", size: 16, scale: 2, kind: .threshold, threshold: 2),
      ])
  }

  @Test func directoriesMatchBySizeScaleAndType() {
    let fixed = IconDirectory(path: "48", size: 48, kind: .fixed)
    #expect(fixed.matches(size: 48, scale: 1))
    #expect(!fixed.matches(size: 47, scale: 1))
    #expect(!fixed.matches(size: 48, scale: 2), "a scale-1 directory is not made for scale 2")
    #expect(fixed.distance(pixels: 96) == 48)

    let doubled = IconDirectory(path: "24@2", size: 24, scale: 2, kind: .fixed)
    #expect(doubled.matches(size: 24, scale: 2))
    #expect(doubled.pixelRange == 48...48)
    #expect(doubled.distance(pixels: 48) == 0)

    let scalable = IconDirectory(
      path: "scalable", size: 16, kind: .scalable, minimumSize: 8, maximumSize: 32)
    #expect(scalable.matches(size: 8, scale: 1) && scalable.matches(size: 32, scale: 1))
    #expect(!scalable.matches(size: 33, scale: 1))
    #expect(scalable.distance(pixels: 48) == 16 && scalable.distance(pixels: 4) == 4)

    let threshold = IconDirectory(path: "22", size: 22, kind: .threshold, threshold: 3)
    #expect(threshold.matches(size: 19, scale: 1) && threshold.matches(size: 25, scale: 1))
    #expect(!threshold.matches(size: 26, scale: 1))
    #expect(threshold.distance(pixels: 30) == 5)
    // The default threshold is 2.
    #expect(IconDirectory(path: "x", size: 22).matches(size: 24, scale: 1))
    #expect(!IconDirectory(path: "x", size: 22).matches(size: 25, scale: 1))
  }

  @Test func namesFallBackAsGTKDoes() {
    #expect(
      IconLookup.fallbackNames("audio-volume-high-symbolic") == [
        "audio-volume-high-symbolic", "audio-volume-symbolic", "audio-symbolic",
        "audio-volume-high", "audio-volume", "audio",
      ])
    #expect(
      IconLookup.fallbackNames("audio-volume-high") == [
        "audio-volume-high", "audio-volume", "audio",
        "audio-volume-high-symbolic", "audio-volume-symbolic", "audio-symbolic",
      ])
    #expect(IconLookup.fallbackNames("firefox") == ["firefox", "firefox-symbolic"])
  }

  @Test func aFixedDirectoryOfTheSizeWins() {
    #expect(Self.find("fixed-sizes", size: 16) == "share/icons/Child/16x16/apps/fixed-sizes.png")
    #expect(Self.find("fixed-sizes", size: 32) == "share/icons/Child/32x32/apps/fixed-sizes.png")
    #expect(Self.find("fixed-sizes", size: 48) == "share/icons/Child/48x48/apps/fixed-sizes.png")
  }

  @Test func betweenSizesTheLargerBitmapIsShrunkNotTheSmallerEnlarged() {
    // 24: 16 and 32 are as near, and the specification would take the first
    // listed (16, enlarged); the 32 shrinks instead.
    #expect(Self.find("fixed-sizes", size: 24) == "share/icons/Child/32x32/apps/fixed-sizes.png")
    // 48 from 16 or 256: 16 is nearer, but only 256 is not enlarged.
    #expect(
      Self.find("tiny-or-huge", size: 48) == "share/icons/Parent/256x256/apps/tiny-or-huge.png")
    #expect(Self.find("tiny-or-huge", size: 16) == "share/icons/Parent/16x16/apps/tiny-or-huge.png")
    // Larger than every bitmap: the largest.
    #expect(Self.find("fixed-sizes", size: 96) == "share/icons/Child/48x48/apps/fixed-sizes.png")
  }

  @Test func scalesPickTheirOwnDirectoryOrEnoughPixels() {
    // Scale 2: the 24x24@2 directory is made for it.
    #expect(Self.find("scaled", size: 24, scale: 2) == "share/icons/Child/24x24@2/apps/scaled.png")
    // 1.5 rounds up to the scale-2 directory: 48 pixels shrunk to 36, never 24 enlarged.
    #expect(
      Self.find("scaled", size: 24, scale: 1.5) == "share/icons/Child/24x24@2/apps/scaled.png")
    #expect(Self.find("scaled", size: 48, scale: 1) == "share/icons/Child/48x48/apps/scaled.png")
    // 16 at scale 2 is 32 pixels: the 32x32 bitmap, not the 16 enlarged.
    #expect(
      Self.find("fixed-sizes", size: 16, scale: 2) == "share/icons/Child/32x32/apps/fixed-sizes.png"
    )
    // 24 at 2 is 48 pixels: the 48 bitmap.
    #expect(
      Self.find("fixed-sizes", size: 24, scale: 2) == "share/icons/Child/48x48/apps/fixed-sizes.png"
    )
  }

  @Test func scalableAndFixedDirectories() {
    // 16: both the fixed 16 and the scalable (8-32) directory are made for it;
    // the first listed wins.
    #expect(Self.find("vector", size: 16) == "share/icons/Child/16x16/apps/vector.png")
    #expect(Self.find("vector", size: 32) == "share/icons/Child/scalable/apps/vector.svg")
    // Past the scalable range an SVG is still drawn sharp: never the 16 enlarged.
    #expect(Self.find("vector", size: 48) == "share/icons/Child/scalable/apps/vector.svg")
    #expect(Self.find("vector", size: 16, scale: 3) == "share/icons/Child/scalable/apps/vector.svg")
  }

  @Test func thresholdDirectoriesStretch() {
    #expect(Self.find("threshold", size: 24) == "share/icons/Child/22x22/apps/threshold.png")
    #expect(Self.find("threshold", size: 19) == "share/icons/Child/22x22/apps/threshold.png")
    #expect(Self.find("threshold", size: 16) == "share/icons/Child/16x16/apps/threshold.png")
    // 26 is beyond the threshold: the nearest is still the 22, made for up to 25.
    #expect(Self.find("threshold", size: 26) == "share/icons/Child/22x22/apps/threshold.png")
  }

  @Test func parentsAreSearchedInOrderThenHicolorThenPixmaps() {
    #expect(iconLookup.themeChain("Child") == ["Child", "Parent", "Grandparent", "hicolor"])
    #expect(iconLookup.themeChain(nil) == ["hicolor"])
    #expect(iconLookup.themeChain("Nonexistent") == ["hicolor"])
    #expect(!iconLookup.themeExists("Nonexistent") && iconLookup.themeExists("Parent"))
    // The theme asked for wins over its parent, even with an SVG there.
    #expect(Self.find("in-both") == "share/icons/Child/48x48/apps/in-both.png")
    #expect(Self.find("parent-only") == "share/icons/Parent/scalable/apps/parent-only.svg")
    #expect(Self.find("grand") == "share/icons/Grandparent/48x48/apps/grand.png")
    // hicolor is searched even when no theme inherits it, and without a theme.
    #expect(Self.find("hicolor-only") == "share/icons/hicolor/48x48/apps/hicolor-only.png")
    #expect(
      Self.find("hicolor-only", theme: nil) == "share/icons/hicolor/48x48/apps/hicolor-only.png")
    #expect(Self.find("parent-only", theme: nil) == nil, "only hicolor without a theme")
    // Unthemed icons come last.
    let unthemed = iconLookup.find("unthemed", theme: "Child", size: 48, scale: 1)
    #expect(unthemed?.path == iconsDirectory + "/pixmaps/unthemed.png" && unthemed?.theme == nil)
    #expect(Self.find("no-such-icon") == nil)
  }

  @Test func theUsersDirectoryComesFirstAndNeedsNoIndex() {
    #expect(Self.find("override") == "local/icons/Child/48x48/apps/override.png")
  }

  @Test func symbolicNamesFallBackToSymbolicOnesFirst() throws {
    // test-volume-high-symbolic: no such file; test-volume-symbolic comes before
    // the regular test-volume-high.
    let symbolic = try #require(
      iconLookup.find("test-volume-high-symbolic", theme: "Child", size: 48, scale: 1))
    #expect(symbolic.name == "test-volume-symbolic" && symbolic.isSymbolic && symbolic.isScalable)
    // Only a regular icon: found, and not recoloured.
    let regular = try #require(
      iconLookup.find("test-muted-symbolic", theme: "Child", size: 48, scale: 1))
    #expect(regular.name == "test-muted" && !regular.isSymbolic)
    // A regular name falls back to symbolic ones after the regular ones.
    let fallback = try #require(
      iconLookup.find("test-volume-low", theme: "Child", size: 48, scale: 1))
    #expect(fallback.name == "test-volume-symbolic")
    #expect(Self.find("test-volume-high") == "share/icons/Child/48x48/apps/test-volume-high.png")
  }

  @Test func namesThatArePathsOrEscapesFindNothing() {
    for name in ["", ".", "..", "../Child/48x48/apps/in-both", "a/b"] {
      #expect(Self.find(name) == nil, "\(name)")
    }
    #expect(iconLookup.themeChain("../share/icons/Child") == ["hicolor"])
  }

  // MARK: - Debian's Adwaita (adwaita-icon-theme, installed by make deps)

  static let installed = IconLookup(
    searchPath: IconSearchPath(
      themeDirectories: ["/usr/share/icons"],
      fallbackDirectories: ["/usr/share/icons", "/usr/share/pixmaps"]))

  @Test(arguments: [1.0, 1.25, 1.5, 2.0])
  func adwaitasSymbolicVolumeIconIsItsSVG(scale: Double) throws {
    let file = try #require(
      Self.installed.find("audio-volume-high-symbolic", theme: "Adwaita", size: 48, scale: scale))
    #expect(file.path == "/usr/share/icons/Adwaita/scalable/status/audio-volume-high-symbolic.svg")
    #expect(file.theme == "Adwaita" && file.isSymbolic)
    #expect(Self.installed.themeChain("Adwaita") == ["Adwaita", "hicolor"])
  }

  @Test func adwaitaFallsBackAlongTheName() throws {
    // No such icon: its shorter name, a symbolic one, comes next.
    let file = try #require(
      Self.installed.find(
        "audio-volume-high-nonexistent-symbolic", theme: "Adwaita", size: 48, scale: 1))
    #expect(file.name == "audio-volume-high-symbolic")
    let missing = Self.installed.find("wl-toast-no-such-icon", theme: "Adwaita", size: 48, scale: 1)
    #expect(missing == nil)
  }

  // MARK: - GTK's icon-theme.cache

  @Test func adwaitasCacheNamesItsDirectories() throws {
    let cache = try #require(IconThemeCache(root: "/usr/share/icons/Adwaita"))
    let images = cache.images(of: "audio-volume-high-symbolic")
    let scalable = try #require(
      images.first { cache.directories[$0.directory] == "scalable/status" })
    #expect(scalable.suffixes.contains(.svg))
    #expect(cache.images(of: "wl-toast-no-such-icon").isEmpty)
    // GTK's hash: h * 31 + c over signed characters.
    #expect(IconThemeCache.hash(Array("a".utf8)) == 97)
    #expect(IconThemeCache.hash(Array("ab".utf8)) == 97 * 31 + 98)
    #expect(
      IconThemeCache.hash([0xc3, 0xa9]) == UInt32(bitPattern: -61) &* 31 &+ UInt32(bitPattern: -87))
    // Truncated or foreign bytes are no cache.
    #expect(IconThemeCache(bytes: []) == nil)
    #expect(IconThemeCache(bytes: [0, 1, 0, 0, 0, 0, 0, 12, 0, 0, 0, 200]) == nil)
  }

  @Test func gtksCacheFindsWhatTheListingsFind() throws {
    // A copy of the tests' themes, each with a cache from gtk-update-icon-cache
    // (the user's directory has none: its files are still listed).
    // mkdtemp fills in the template in place (an array of ours: no strdup left unfreed).
    var template = Array("/tmp/wl-toast-icon-cache-XXXXXX".utf8CString)
    try #require(mkdtemp(&template) != nil)
    let copy = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    defer { #expect(system("rm -rf '\(copy)'") == 0) }
    #expect(
      system(
        "cp -R '\(iconsDirectory)/share' '\(iconsDirectory)/local' '\(iconsDirectory)/pixmaps' '\(copy)/'"
      )
        == 0)
    for theme in ["Child", "Parent", "Grandparent", "hicolor"] {
      let root = "\(copy)/share/icons/\(theme)"
      #expect(system("gtk-update-icon-cache --force --quiet '\(root)'") == 0)
      #expect(IconThemeCache(root: root) != nil, "\(theme) has a cache")
    }
    #expect(IconThemeCache(root: "\(copy)/local/icons/Child") == nil)
    let cached = IconLookup(
      searchPath: IconSearchPath(
        themeDirectories: [copy + "/local/icons", copy + "/share/icons"],
        fallbackDirectories: [copy + "/local/icons", copy + "/share/icons", copy + "/pixmaps"]))
    let names = [
      "fixed-sizes", "tiny-or-huge", "vector", "threshold", "scaled", "in-both", "parent-only",
      "grand", "hicolor-only", "override", "unthemed", "test-volume-high-symbolic",
      "test-muted-symbolic", "test-volume-low", "no-such-icon",
    ]
    for name in names {
      for (size, scale) in [(16, 1.0), (24, 1.0), (24, 1.5), (24, 2.0), (48, 1.0), (48, 2.0)] {
        let listed = iconLookup.find(name, theme: "Child", size: size, scale: scale)
        let viaCache = cached.find(name, theme: "Child", size: size, scale: scale)
        #expect(
          listed.map { String($0.path.dropFirst(iconsDirectory.count)) }
            == viaCache.map { String($0.path.dropFirst(copy.count)) },
          "\(name) at \(size)@\(scale)")
      }
    }
  }
}

/// The desktop's icon theme, found as GTK finds it (DesktopIconTheme).
struct DesktopIconThemeTests {
  static func theme(
    _ files: [String: String], environment: [String: String] = ["HOME": "/home/me"],
    adwaita: Bool = true
  ) -> String? {
    DesktopIconTheme.name(
      environment: environment, readFile: { files[$0].map { Array($0.utf8) } },
      isInstalled: { $0 == "Adwaita" && adwaita })
  }

  @Test func gtk3ThenGtk4UnderTheConfigHomeThenTheConfigDirs() {
    let settings = "[Settings]\ngtk-icon-theme-name=Papirus\n"
    #expect(Self.theme(["/home/me/.config/gtk-3.0/settings.ini": settings]) == "Papirus")
    #expect(
      Self.theme([
        "/home/me/.config/gtk-4.0/settings.ini": settings,
        "/etc/xdg/gtk-3.0/settings.ini": "[Settings]\ngtk-icon-theme-name=Other\n",
      ]) == "Papirus", "the user's gtk-4.0 before the system's gtk-3.0")
    #expect(
      Self.theme(
        ["/c/gtk-3.0/settings.ini": settings],
        environment: ["HOME": "/home/me", "XDG_CONFIG_HOME": "/c"]) == "Papirus")
    #expect(
      Self.theme(
        ["/d2/gtk-4.0/settings.ini": settings],
        environment: ["HOME": "/h", "XDG_CONFIG_DIRS": "/d1:/d2"]) == "Papirus")
    #expect(Self.theme(["/etc/xdg/gtk-3.0/settings.ini": settings]) == "Papirus")
  }

  @Test func otherwiseAdwaitaWhenInstalledElseNone() {
    #expect(Self.theme([:]) == "Adwaita")
    #expect(Self.theme([:], adwaita: false) == nil)
    #expect(Self.theme([:], environment: [:], adwaita: false) == nil, "no HOME either")
  }

  @Test(arguments: [
    "[Settings]\ngtk-icon-theme-name = \"Yaru\"\n",
    "# comment\n[Settings]\n  gtk-icon-theme-name\t=\tYaru  \ngtk-theme-name=Adwaita-dark\n",
    "[Settings]\ngtk-icon-theme-name=Old\ngtk-icon-theme-name=Yaru\n",
  ])
  func theKeyIsReadAsAGKeyFileReadsIt(_ text: String) {
    #expect(Self.theme(["/home/me/.config/gtk-3.0/settings.ini": text]) == "Yaru")
  }

  @Test(arguments: [
    "gtk-icon-theme-name=NoGroup\n", "[Other]\ngtk-icon-theme-name=Wrong\n",
    "[Settings]\ngtk-icon-theme-name=\n", "[Settings]\ngtk-icon-theme-name=../escape\n",
    "[Settings\ngtk-icon-theme-name", "\u{FF}\u{FE}garbage",
  ])
  func aMalformedFileIsIgnored(_ text: String) {
    #expect(Self.theme(["/home/me/.config/gtk-3.0/settings.ini": text]) == "Adwaita")
  }

  @Test func invalidUTF8IsIgnored() {
    let theme = DesktopIconTheme.name(
      environment: ["HOME": "/h"], readFile: { _ in [0x5B, 0xFF, 0xFE, 0x5D] },
      isInstalled: { _ in false })
    #expect(theme == nil)
  }
}
