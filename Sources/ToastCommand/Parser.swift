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
  var given: [(Option, OptionInput)] = []
  // Each option is checked as it comes, so that the first mistake is the one reported.
  var scratch = OptionValues()
  let words = try scan(arguments, command: nil) { (option, input) throws(UsageError) in
    try applyToToast(option, input, to: &scratch)
    given.append((option, input))
  }
  // The file's [default], then the preset, then the command line: later wins.
  let preset = given.last { $0.0.name == "preset" }.map { $0.1.text }
  var sources = [config.map { configItems($0.defaults, of: $0) } ?? []]
  if let preset {
    guard let entries = config?.presets[preset] else {
      throw .unknownPreset(preset, among: config?.presetNames ?? [], file: config?.path)
    }
    sources.append(configItems(entries, of: config))
  }
  sources.append(given)
  // A repeatable option (`--button`) has the values of the last source that gives any.
  for option in Option.all where option.isRepeatable {
    guard let last = sources.lastIndex(where: { $0.contains { $0.0 == option } }) else {
      continue
    }
    for index in 0..<last { sources[index].removeAll { $0.0 == option } }
  }
  var values = OptionValues()
  for (option, input) in sources.joined() { try applyToToast(option, input, to: &values) }
  var toast = values.toast
  if let render = values.show.render, render.path.isEmpty {
    throw .renderOptionWithoutFile
  }
  let text = words.joined(separator: " ")
  if text.allSatisfy(\.isWhitespace) && !toast.showsSpinner && toast.progress == nil
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
