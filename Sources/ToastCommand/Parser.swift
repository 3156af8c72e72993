import ToastModel

/// Parses the arguments of `wl-toast` (without the program name).
///
/// `-h`/`--help` and `-V`/`--version` win over everything else on the command
/// line, including mistakes, unless they follow `--` or are the value of an
/// option (`--font --help`); otherwise the result is the toast to show or the
/// first mistake found.
package func parseArguments(_ arguments: [String], config: Config? = nil) -> Result<
  Invocation, UsageError
> {
  if let first = arguments.first, let subcommand = Subcommand.passingArguments(first) {
    return Result { () throws(UsageError) in
      try subcommand.make(OptionValues(), Array(arguments.dropFirst()))
    }
  }
  if let request = helpOrVersion(in: arguments) { return .success(request) }
  return Result { () throws(UsageError) in
    if let first = arguments.first, isSubcommand(first) {
      return try parseSubcommand(first, Array(arguments.dropFirst()))
    }
    return try parseToast(arguments, config: config)
  }
}

/// Sets what a toast's command line or configuration file said of an option;
/// an option of a subcommand is misplaced here.
private func applyToToast(_ option: Option, _ input: OptionInput, to values: inout OptionValues)
  throws(UsageError)
{
  guard option.scope.contains(.show) else {
    let owner = Subcommand.owning(option).map { "wl-toast " + $0.name } ?? "a subcommand"
    throw .misplacedOption(option.flagName, belongsTo: owner)
  }
  try option.apply(&values, input)
}

private func parseToast(_ arguments: [String], config: Config?) throws(UsageError) -> Invocation {
  var given: [OptionItem] = []
  // Each option is checked as it comes, so that the first mistake is the one reported.
  var scratch = OptionValues()
  let words = try scan(arguments, command: nil) { (option, input) throws(UsageError) in
    try applyToToast(option, input, to: &scratch)
    given.append(OptionItem(option: option, input: input, source: 2))
  }
  // The file's [default] (source 0), then the preset (1), then the command
  // line (2): later wins.
  let preset = given.last { $0.option.name == "preset" }.map { $0.input.text }
  var items = config.map { configItems($0.defaults, of: $0, source: 0) } ?? []
  if let preset {
    guard let entries = config?.presets[preset] else {
      throw .unknownPreset(preset, among: config?.presetNames ?? [], file: config?.path)
    }
    items += configItems(entries, of: config, source: 1)
  }
  if items.isEmpty {
    items = given
  } else {
    items += given
    // A repeatable option (`--button`) has the values of the last source that gives any.
    for option in Option.all where option.isRepeatable {
      guard let last = items.last(where: { $0.option == option })?.source else { continue }
      items.removeAll { $0.option == option && $0.source < last }
    }
  }
  var values = OptionValues()
  for item in items { try applyToToast(item.option, item.input, to: &values) }
  var toast = values.toast
  if let render = values.show.render, render.path.isEmpty {
    throw .renderOptionWithoutFile
  }
  // A loop of its own: `joined(separator:)` is generic code that asks the
  // runtime for its associated types.
  var text = ""
  for (index, word) in words.enumerated() {
    if index > 0 { text += " " }
    text += word
  }
  if text.allSatisfy(Toast.isBlank) && !toast.showsSpinner && toast.progress == nil
    && values.show.follow == nil
  {
    throw .missingMessage
  }
  if toast.dimsBackground && !toast.isModal {
    throw .dimWithoutModal
  }
  toast.text = Toast.truncated(text)
  return .show(toast, values.show)
}
