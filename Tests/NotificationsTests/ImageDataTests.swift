import Bus
import Notifications
import Testing
import ToastModel

/// `image-data`: its parts checked against each other, converted to RGBA,
/// scaled down when large; what is refused and why.
struct ImageDataTests {
  /// The image of a call with `image-data` set to `value`.
  func image(_ value: OpaquePointer) throws -> Toast.Image? {
    guard case .pixels(let image) = try request(hints: [("image-data", value)]).hints.image else {
      return nil
    }
    return image
  }

  /// The refusal of a call with `image-data` set to `value`.
  func refused(_ value: OpaquePointer) -> NotificationRefusal? {
    refusal(hints: [("image-data", value)])
  }

  @Test func rgbGetsAnOpaqueAlpha() throws {
    let value = imageData(
      width: 2, height: 1, rowstride: 6, hasAlpha: false, channels: 3,
      data: [255, 0, 0, 0, 0, 255])
    let read = try #require(try image(value))
    #expect(read.width == 2 && read.height == 1)
    #expect(read.rgba == [255, 0, 0, 255, 0, 0, 255, 255])
  }

  @Test func rgbaIsKeptAsItIs() throws {
    let data: [UInt8] = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160]
    let value = imageData(
      width: 2, height: 2, rowstride: 8, hasAlpha: true, channels: 4, data: data)
    #expect(try image(value)?.rgba == data)
  }

  @Test func rowstridePaddingIsSkippedAndTheLastRowMayLackIt() throws {
    // Rows of 2 RGB pixels (6 bytes) padded to 8; the last row unpadded.
    let data: [UInt8] = [1, 2, 3, 4, 5, 6, 0xEE, 0xEE, 7, 8, 9, 10, 11, 12]
    let value = imageData(
      width: 2, height: 2, rowstride: 8, hasAlpha: false, channels: 3, data: data)
    #expect(try image(value)?.rgba == [1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, 10, 11, 12, 255])
    let padded = imageData(
      width: 2, height: 2, rowstride: 8, hasAlpha: false, channels: 3, data: data + [0xEE, 0xEE])
    #expect(try image(padded)?.rgba.count == 16, "or have it")
  }

  @Test func aLengthThatDisagreesWithTheSizeIsRefused() {
    let short = imageData(
      width: 2, height: 2, rowstride: 8, hasAlpha: false, channels: 3,
      data: [UInt8](repeating: 0, count: 13))
    #expect(
      refused(short)
        == NotificationRefusal(
          name: NotificationRefusal.invalidArguments,
          message:
            "image-data: 13 bytes for 2x2 pixels of 3 bytes with a rowstride of 8, expected 14"
            + " to 16"))
    let long = imageData(
      width: 1, height: 1, rowstride: 4, hasAlpha: true, channels: 4,
      data: [UInt8](repeating: 0, count: 5))
    #expect(refused(long)?.name == NotificationRefusal.invalidArguments)
  }

  @Test func aClaimedSizeOfGigabytesIsRefusedBeforeAnythingIsRead() {
    let huge = imageData(
      width: 100_000, height: 100_000, rowstride: 400_000, hasAlpha: true, channels: 4,
      data: [1, 2, 3, 4])
    #expect(
      refused(huge)
        == NotificationRefusal(
          name: NotificationRefusal.limitsExceeded,
          message: "image-data: 100000x100000 pixels, at most 16384 a side"))
    // Within the sides, a gigabyte claimed and four bytes given: the length's refusal.
    let claimed = imageData(
      width: 16_000, height: 16_000, rowstride: 64_000, hasAlpha: true, channels: 4,
      data: [1, 2, 3, 4])
    #expect(refused(claimed)?.name == NotificationRefusal.invalidArguments)
  }

  @Test func sixteenBitsAndTwoChannelsAreRefused() {
    let deep = imageData(
      width: 1, height: 1, rowstride: 6, hasAlpha: false, bits: 16, channels: 3,
      data: [UInt8](repeating: 0, count: 6))
    #expect(refused(deep)?.message == "image-data: 16 bits per sample, expected 8")
    let grey = imageData(
      width: 1, height: 1, rowstride: 2, hasAlpha: true, channels: 2, data: [0, 0])
    #expect(refused(grey)?.message == "image-data: 2 channels with alpha, expected 4")
    let mismatch = imageData(
      width: 1, height: 1, rowstride: 4, hasAlpha: false, channels: 4, data: [0, 0, 0, 0])
    #expect(refused(mismatch)?.message == "image-data: 4 channels without alpha, expected 3")
  }

  @Test func emptySidesAShortRowstrideAndAnotherTypeAreRefused() {
    let empty = imageData(width: 0, height: 1, rowstride: 0, hasAlpha: false, channels: 3, data: [])
    #expect(refused(empty)?.message == "image-data: 0x1 pixels, expected sides of 1 or more")
    let negative = imageData(
      width: -1, height: -1, rowstride: -1, hasAlpha: false, channels: 3, data: [])
    #expect(refused(negative)?.name == NotificationRefusal.invalidArguments)
    let narrow = imageData(
      width: 2, height: 1, rowstride: 5, hasAlpha: false, channels: 3, data: [0, 0, 0, 0, 0, 0])
    #expect(
      refused(narrow)?.message == "image-data: a rowstride of 5 bytes, shorter than a row of 6")
    #expect(
      refused(Variant.string("/tmp/a.png"))?.message == "image-data: expected (iiibiiay), got s")
    #expect(
      refusal(hints: [("icon_data", Variant.int32(3))])?.message
        == "icon_data: expected (iiibiiay), got i")
  }

  @Test func aLargeImageIsScaledDownByAWholeFactorAveraging() throws {
    let side = NotificationRequest.Limits.imageSide
    // 2·side + 1 wide and 3 high: a factor of 3 brings it within a side,
    // each pixel the mean of a square of 3x3.
    let width = side * 2 + 1
    var data: [UInt8] = []
    for row in 0..<3 {
      for column in 0..<width {
        let bright: UInt8 = (column + row) % 2 == 0 ? 255 : 0
        data += [bright, bright, bright, 255]
      }
    }
    let value = imageData(
      width: Int32(width), height: 3, rowstride: Int32(width * 4), hasAlpha: true, channels: 4,
      data: data)
    let scaled = try #require(try image(value))
    #expect(scaled.width == width / 3 && scaled.height == 1)
    #expect(scaled.width <= side)
    // A 3x3 square of a checkerboard: five white, four black.
    #expect(Array(scaled.rgba[0..<4]) == [142, 142, 142, 255])
  }

  @Test func aTransparentPixelDoesNotDarkenItsNeighboursWhenScaled() throws {
    let side = NotificationRequest.Limits.imageSide
    let width = side * 2
    var data: [UInt8] = []
    for column in 0..<width { data += column % 2 == 0 ? [255, 0, 0, 255] : [0, 0, 0, 0] }
    let value = imageData(
      width: Int32(width), height: 1, rowstride: Int32(width * 4), hasAlpha: true, channels: 4,
      data: data)
    let scaled = try #require(try image(value))
    #expect(scaled.width == side && Array(scaled.rgba[0..<4]) == [255, 0, 0, 128])
  }
}
