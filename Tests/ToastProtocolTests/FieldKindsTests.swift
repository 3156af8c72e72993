import Testing
import ToastProtocol

/// The fields' kinds: numbers read as the command line and the socket read them.
struct FieldKindsTests {
  @Test func decimalsTakeASCIIDigitsOnly() {
    #expect(decimal("12.5") == 12.5)
    #expect(decimal("-.5") == -0.5)
    #expect(decimal("+2.") == 2)
    for other in ["١٢", "１２", "½", "1e3", "0x10", "", ".", "inf"] {
      #expect(decimal(other) == nil, "\(other)")
    }
  }
}
