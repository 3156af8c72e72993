extension Generator {
  /// One event argument as the generated code delivers it.
  struct EventArgument {
    /// The associated value of the `Event` case, such as `surface: WlSurface`.
    var payload: String
    /// A statement that decodes the value into a local first, or nil when the value is
    /// read in place. Objects are decoded first: an event whose object is gone is dropped.
    var decoding: String?
    /// The labelled value passed to the case, such as `surface: surface`.
    var value: String
  }

  /// Names the dispatch code uses itself, which an argument's local must not shadow.
  static let dispatchNames: Set<String> = [
    "arguments", "opcode", "onEvent", "finishDestructorEvent", "Marshal",
  ]

  /// Writes the `Event` enum, the `onEvent` handler and the dispatcher that decodes
  /// libwayland's arguments into events.
  func emitEvents(_ interface: InterfaceSpec, into out: inout Output) {
    out.line("/// Events the compositor sends to this object.")
    out.line("public enum Event {")
    out.indent { out in
      for event in interface.events {
        out.doc(event.description, fallback: "The \(event.name) event.")
        if event.since > 1 { out.line("///\n/// Since version \(event.since).") }
        var scope = Scope(reserved: Self.dispatchNames)
        let payload = eventArguments(event, in: interface, scope: &scope).map(\.payload)
        let name = Naming.memberName(event.name)
        out.line(
          payload.isEmpty ? "case \(name)" : "case \(name)(\(payload.joined(separator: ", ")))")
      }
    }
    out.line("}")
    out.line("")
    out.line("/// Receives this object's events; set it before the events can arrive.")
    out.line("public var onEvent: ((Event) -> Void)?")
    out.line("")
    out.line("override func clearHandlers() { onEvent = nil }")
    out.line("")
    out.line(
      "override func dispatch(opcode: UInt32, arguments: UnsafeMutablePointer<wl_argument>) {")
    out.indent { out in
      out.line("switch opcode {")
      for (opcode, event) in interface.events.enumerated() {
        out.line("case \(opcode):")
        out.indent { out in
          var scope = Scope(reserved: Self.dispatchNames)
          let arguments = eventArguments(event, in: interface, scope: &scope)
          for case let decoding? in arguments.map(\.decoding) { out.line(decoding) }
          let name = Naming.memberName(event.name)
          let values = arguments.map(\.value).joined(separator: ", ")
          out.line(values.isEmpty ? "onEvent?(.\(name))" : "onEvent?(.\(name)(\(values)))")
          if event.isDestructor { out.line("finishDestructorEvent()") }
        }
      }
      out.line("default:")
      out.line("  break")
      out.line("}")
    }
    out.line("}")
  }

  /// Describes each argument of an event, claiming the names of its locals in `scope`.
  func eventArguments(
    _ event: MessageSpec, in interface: InterfaceSpec, scope: inout Scope
  ) -> [EventArgument] {
    event.arguments.enumerated().map { index, argument in
      let label = Naming.bareMemberName(argument.name)
      let type = swiftType(of: argument, in: interface)
      let slot = "arguments[\(index)]"
      var decoding: String?
      let value: String
      switch argument.kind {
      case .int:
        value = enumWrap("\(slot).i", argument, in: interface, signed: true)
      case .uint:
        value = enumWrap("\(slot).u", argument, in: interface, signed: false)
      case .fixed:
        value = "wlt_fixed_to_double(\(slot).f)"
      case .string:
        value = "Marshal.string(\(slot).s)" + (argument.allowNull ? "" : " ?? \"\"")
      case .array:
        value = "Marshal.bytes(\(slot).a)"
      case .fd:
        value = "\(slot).h"
      case .object:
        value = scope.claim(label)
        decoding =
          argument.allowNull
          ? "let \(value): \(type) = Marshal.object(\(slot).o)"
          : "guard let \(value): \(type) = Marshal.object(\(slot).o) else { return }"
      case .newID:
        value = scope.claim(label)
        decoding =
          argument.interface.flatMap { interfaces[$0] } == nil
          ? "guard let \(value) = Marshal.adoptUntyped(\(slot).o, parent: self) else { return }"
          : "guard let \(value) = Marshal.adopt(\(slot).o, as: \(type).self, parent: self) "
            + "else { return }"
      }
      return EventArgument(
        payload: "\(label): \(type)", decoding: decoding, value: "\(label): \(value)")
    }
  }
}
