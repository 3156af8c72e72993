import ToastModel
import ToastNagOptions

/// One option met on a command line or configuration line, with its value
/// and, for a button, its action (nil when the words ran out).
struct NagOccurrence: Equatable {
  var option: NagOption
  var value: String?
  var action: String?
}

/// The options of a command line in order, up to the first the scan refused.
struct NagScan: Equatable {
  /// The options before the failure.
  var occurrences: [NagOccurrence] = []
  /// Why the scan stopped early: an unknown or ambiguous option, a value
  /// missing or not expected; nil when every word was read.
  var failure: NagError?
}

/// Reads words as glibc's getopt_long reads them for swaynag's option string
/// `b:B:z:Z:c:de:y:f:hlL:m:o:s:t:v` and long options: `-mTEXT` and
/// `-m TEXT`, `--message=TEXT` and `--message TEXT`, clustered flags (`-dl`),
/// unambiguous prefixes of long names, `--` to end the options, and words
/// that are not options skipped (GNU permutation) unless `inOrder` (the
/// environment's POSIXLY_CORRECT), which stops at the first. A button's
/// action is the word after its label whatever it is (swaynag's `optind++`).
func scanNagOptions(_ words: [String], inOrder: Bool) -> NagScan {
  var scan = NagScan()
  var index = 0

  /// The next word as a value, or the failure of its absence.
  func takeValue(for option: NagOption, written: String) -> String? {
    guard index < words.count else {
      scan.failure = NagError(
        "option \(written) needs a value", exitStatus: NagError.usageStatus)
      return nil
    }
    index += 1
    return words[index - 1]
  }

  /// Records an option, taking a button's action from the next word.
  func record(_ option: NagOption, value: String?) {
    var action: String?
    if option.isButton, index < words.count {
      action = words[index]
      index += 1
    }
    scan.occurrences.append(NagOccurrence(option: option, value: value, action: action))
  }

  while index < words.count, scan.failure == nil {
    // Bytes decide, as in getopt: a combining mark after '-' or '=' is no
    // part of it.
    let word = words[index]
    let scalars = word.unicodeScalars
    if scalars.elementsEqual("--".unicodeScalars) { break }
    guard scalars.first == "-", scalars.count > 1 else {
      if inOrder { break }
      index += 1
      continue
    }
    index += 1
    if scalars.starts(with: "--".unicodeScalars) {
      let body = scalars.dropFirst(2)
      let name = String(String.UnicodeScalarView(body.prefix { $0 != "=" }))
      let equals = body.firstIndex(of: "=")
      let attached = equals.map {
        String(String.UnicodeScalarView(body[scalars.index(after: $0)...]))
      }
      let candidates = NagOption.matching(name)
      guard let option = candidates.first else {
        scan.failure = NagError(
          "unknown option \(Toast.quoted("--" + name))", exitStatus: NagError.usageStatus)
        break
      }
      guard candidates.count == 1 else {
        let names = candidates.map(\.long)
        scan.failure = NagError(
          "ambiguous option \(Toast.quoted("--" + name)) (could be "
            + names.dropLast().joined(separator: ", ") + " or \(names.last!))",
          exitStatus: NagError.usageStatus)
        break
      }
      if !option.takesValue {
        guard attached == nil else {
          scan.failure = NagError(
            "option \(option.long) takes no value", exitStatus: NagError.usageStatus)
          break
        }
        record(option, value: nil)
      } else if let value = attached ?? takeValue(for: option, written: option.long) {
        record(option, value: value)
      }
      continue
    }
    // A cluster of short options: flags, then at most one option with a value.
    let letters = Array(scalars.dropFirst())
    for (position, letter) in letters.enumerated() {
      guard let option = NagOption.lettered(letter) else {
        scan.failure = NagError(
          "unknown option \(Toast.quoted("-" + String(letter)))",
          exitStatus: NagError.usageStatus)
        break
      }
      guard option.takesValue else {
        record(option, value: nil)
        continue
      }
      var rest = String.UnicodeScalarView()
      rest.append(contentsOf: letters[(position + 1)...])
      if !rest.isEmpty {
        record(option, value: String(rest))
      } else if let value = takeValue(for: option, written: "-" + String(letter)) {
        record(option, value: value)
      }
      break
    }
  }
  return scan
}
