import Glibc
import TestSupport
import Testing

@testable import Watchers

/// Which `mpris:artUrl` becomes the toast's icon: local files the owner can
/// draw, and nothing else.
struct MediaCoverTests {
  @Test func onlyFileURIsWithAnAbsolutePathArePaths() {
    #expect(MediaCover.path(of: "file:///music/cover.png") == "/music/cover.png")
    #expect(MediaCover.path(of: "file:///sp%20ace%20%C3%A9/cover.png") == "/sp ace é/cover.png")
    #expect(MediaCover.path(of: "file://localhost/music/c.png") == "/music/c.png")
    #expect(MediaCover.path(of: "http://example.com/c.png") == nil)
    #expect(MediaCover.path(of: "https://example.com/c.png") == nil)
    #expect(MediaCover.path(of: "file:relative/c.png") == nil)
    #expect(MediaCover.path(of: "file://host/c.png") == nil)
    #expect(MediaCover.path(of: "/music/c.png") == nil, "a path is no URI")
    #expect(MediaCover.path(of: "file:///a%00b.png") == nil, "NUL")
    #expect(MediaCover.path(of: "file:///a%0Ab.png") == nil, "a line feed")
    #expect(MediaCover.path(of: "file:///a%zzb.png") == nil, "a broken escape")
    #expect(MediaCover.path(of: "file:///a%FFb.png") == nil, "no UTF-8")
    #expect(MediaCover.path(of: "file:///" + String(repeating: "a", count: 5000)) == nil)
  }

  @Test func onlyRegularPNGJPEGAndSVGFilesWithinTheLimitAreCovers() throws {
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-cover")
    defer { removeTree(directory) }
    let png = directory + "/cover.png"
    let bytes = pngFile(width: 4, height: 4, rgb: [255, 0, 255])
    try writeBytes(png, bytes)
    #expect(MediaCover.file(of: "file://" + png) == png)
    try writeFile(directory + "/c.svg", "\n <svg xmlns='http://www.w3.org/2000/svg'/>")
    #expect(MediaCover.file(of: "file://\(directory)/c.svg") == directory + "/c.svg")
    let jpeg = jpegFile(width: 4096, height: 8, rgb: [255, 0, 255], metadata: Array("Exif".utf8))
    try writeBytes(directory + "/c.jpg", jpeg)
    #expect(MediaCover.file(of: "file://\(directory)/c.jpg") == directory + "/c.jpg")
    try writeBytes(
      directory + "/wide.jpg", jpegFile(width: 4097, height: 8, rgb: [0, 0, 0]))
    #expect(
      MediaCover.file(of: "file://\(directory)/wide.jpg") == nil, "wider than the owner draws")
    // Metadata beyond the head that is read: no frame header seen, no cover.
    let long = jpegFile(
      width: 8, height: 8, rgb: [0, 0, 0], metadata: [UInt8](repeating: 0, count: 65_533))
    try writeBytes(directory + "/long.jpg", long)
    #expect(MediaCover.file(of: "file://\(directory)/long.jpg") == nil)
    try writeBytes(directory + "/jfif.jpg", [0xff, 0xd8, 0xff, 0xe0] + Array("JFIF".utf8))
    #expect(MediaCover.file(of: "file://\(directory)/jfif.jpg") == nil, "no frame")
    try writeFile(directory + "/empty.png", "")
    #expect(MediaCover.file(of: "file://\(directory)/empty.png") == nil)
    #expect(MediaCover.file(of: "file://\(directory)/missing.png") == nil)
    #expect(MediaCover.file(of: "file://\(directory)") == nil, "a directory")
    #expect(mkfifo(directory + "/fifo", 0o600) == 0)
    #expect(
      MediaCover.file(of: "file://\(directory)/fifo") == nil, "a FIFO, opened without blocking")
    let huge = open(directory + "/huge.png", O_WRONLY | O_CREAT, 0o600)
    #expect(write(huge, bytes, bytes.count) == bytes.count)
    #expect(ftruncate(huge, off_t(MediaCover.maximumFileSize + 1)) == 0)
    close(huge)
    #expect(MediaCover.file(of: "file://\(directory)/huge.png") == nil, "larger than the limit")
    #expect(MediaCover.file(of: "file:///dev/zero") == nil, "a device")
    try writeBytes(directory + "/wide.png", pngFile(width: 4097, height: 1, rgb: [0, 0, 0]))
    #expect(
      MediaCover.file(of: "file://\(directory)/wide.png") == nil, "wider than the owner draws")
    try writeBytes(directory + "/cut.png", Array(bytes.prefix(12)))
    #expect(MediaCover.file(of: "file://\(directory)/cut.png") == nil, "no header")
  }
}
