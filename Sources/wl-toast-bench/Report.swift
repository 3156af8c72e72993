import ToastCommand

/// The tools side by side, in the table's order.
let toolNames = ["wl-toast", "wob", "swaynag", "mako"]
/// The peers wl-toast's figures are divided by.
let peerNames = Array(toolNames.dropFirst())

/// One row of the table: samples per tool, or a note where a tool has no such figure.
struct Figure {
  /// The JSON key.
  let key: String
  /// The row's title.
  let title: String
  /// `ms`, `MiB`, `KiB`, `count`...
  let unit: String
  /// Decimals shown in the table.
  let decimals: Int
  /// Samples per tool name.
  var samples: [String: [Double]] = [:]
  /// A word instead of a figure, per tool name (a placeholder).
  var notes: [String: String] = [:]

  init(_ key: String, _ title: String, unit: String, decimals: Int = 1) {
    self.key = key
    self.title = title
    self.unit = unit
    self.decimals = decimals
  }

  /// The summary of a tool's samples, or nil.
  func summary(_ tool: String) -> Summary? {
    guard let values = samples[tool], !values.isEmpty else { return nil }
    return Summary(values)
  }

  /// wl-toast's median divided by the peer's.
  func ratio(to peer: String) -> Double? {
    guard let ours = summary("wl-toast")?.median, let theirs = summary(peer)?.median,
      theirs != 0
    else { return nil }
    return ours / theirs
  }
}

/// Median, minimum and maximum of some samples.
struct Summary {
  let median: Double
  let minimum: Double
  let maximum: Double
  let count: Int

  init(_ values: [Double]) {
    let sorted = values.sorted()
    count = sorted.count
    median =
      count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
    minimum = sorted.first ?? 0
    maximum = sorted.last ?? 0
  }
}

/// `value` with `decimals` digits after the point (no Foundation here).
func fixed(_ value: Double, _ decimals: Int) -> String {
  guard value.isFinite else { return "null" }
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let scaled = Int64((abs(value) * scale).rounded())
  let sign = value < 0 && scaled != 0 ? "-" : ""
  let whole = scaled / Int64(scale)
  guard decimals > 0 else { return sign + String(whole) }
  let fraction = String(scaled % Int64(scale))
  return sign + String(whole) + "." + String(repeating: "0", count: decimals - fraction.count)
    + fraction
}

/// The Markdown table: each cell the median and, over several samples, min–max;
/// then wl-toast's median divided by each peer's. `tools` are the columns
/// (wl-toast first), `peers` those wl-toast is divided by.
func table(_ figures: [Figure], tools: [String] = toolNames, peers: [String] = peerNames)
  -> String
{
  var lines = [
    "| figure | " + tools.joined(separator: " | ") + " | "
      + peers.map { "wl-toast ÷ \($0)" }.joined(separator: " | ") + " |",
    "|---|" + String(repeating: "---|", count: tools.count + peers.count),
  ]
  for figure in figures {
    var cells = ["\(figure.title) (\(figure.unit))"]
    for tool in tools {
      if let note = figure.notes[tool] {
        cells.append(note)
      } else if let summary = figure.summary(tool) {
        let median = fixed(summary.median, figure.decimals)
        cells.append(
          summary.count == 1 || summary.minimum == summary.maximum
            ? median
            : "\(median) (\(fixed(summary.minimum, figure.decimals))–\(fixed(summary.maximum, figure.decimals)))"
        )
      } else {
        cells.append("—")
      }
    }
    for peer in peers {
      cells.append(figure.ratio(to: peer).map { fixed($0, 2) + "×" } ?? "—")
    }
    lines.append("| " + cells.joined(separator: " | ") + " |")
  }
  return lines.joined(separator: "\n")
}

/// A JSON string literal, escaped as the owner's messages are.
func jsonString(_ text: String) -> String { JSONValue.string(text).serialized }

/// The same figures as JSON: per figure and tool the median, min, max and every
/// sample (or the note), and wl-toast's ratio to each peer; each of `sections`
/// is a table of its own (its key, its tools and peers, its figures).
func json(
  _ figures: [Figure], rounds: Int, context: [(String, String)], notes: [String],
  sections: [(key: String, tools: [String], peers: [String], figures: [Figure])] = []
) -> String {
  var out = "{\n  \"rounds\": \(rounds),\n  \"context\": {\n"
  out +=
    context.map { "    \(jsonString($0.0)): \(jsonString($0.1))" }.joined(separator: ",\n")
  out += "\n  },\n  \"notes\": [\n"
  out += notes.map { "    " + jsonString($0) }.joined(separator: ",\n")
  out += "\n  ],\n  \"figures\": "
  out += jsonFigures(figures, tools: toolNames, peers: peerNames, indent: "  ")
  for section in sections {
    out += ",\n  \(jsonString(section.key)): {\n    \"tools\": ["
    out += section.tools.map(jsonString).joined(separator: ", ") + "],\n    \"figures\": "
    out += jsonFigures(section.figures, tools: section.tools, peers: section.peers, indent: "    ")
    out += "\n  }"
  }
  return out + "\n}\n"
}

/// A JSON array of figures, its lines after the first indented by `indent`.
private func jsonFigures(_ figures: [Figure], tools: [String], peers: [String], indent: String)
  -> String
{
  func number(_ value: Double) -> String { fixed(value, 4) }
  var entries: [String] = []
  for figure in figures {
    var entry = "  {\n    \"key\": \(jsonString(figure.key)),\n"
    entry += "    \"title\": \(jsonString(figure.title)),\n"
    entry += "    \"unit\": \(jsonString(figure.unit)),\n    \"tools\": {\n"
    var cells: [String] = []
    for tool in tools {
      var value = "null"
      if let note = figure.notes[tool] {
        value = "{\"note\": \(jsonString(note))}"
      } else if let summary = figure.summary(tool), let samples = figure.samples[tool] {
        value =
          "{\"median\": \(number(summary.median)), \"min\": \(number(summary.minimum)), "
          + "\"max\": \(number(summary.maximum)), \"samples\": ["
          + samples.map(number).joined(separator: ", ") + "]}"
      }
      cells.append("      \(jsonString(tool)): \(value)")
    }
    entry += cells.joined(separator: ",\n") + "\n    },\n    \"ratios\": {"
    entry +=
      peers.map { peer in
        "\(jsonString(peer)): \(figure.ratio(to: peer).map { number($0) } ?? "null")"
      }.joined(separator: ", ")
    entry += "}\n  }"
    entries.append(entry)
  }
  let lines = ("[\n" + entries.joined(separator: ",\n") + "\n]").split(
    separator: "\n", omittingEmptySubsequences: false)
  return lines.enumerated().map { $0.offset == 0 ? String($0.element) : indent + $0.element }
    .joined(separator: "\n")
}
