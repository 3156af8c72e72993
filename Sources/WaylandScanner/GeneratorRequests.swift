extension Generator {
  /// One request argument as the generated method sends it.
  struct RequestArgument {
    /// The method's parameters for it, such as `_ surface: WlSurface`: none for a new_id
    /// of a known interface (the method returns the object), two for one without
    /// (`_ type: T.Type, version: UInt32`).
    var parameters: [String]
    /// Statements that hold the value's C form while the request is sent, with their cleanup.
    var preparation: [String]
    /// The `wl_argument` values it fills, in wire order.
    var wireValues: [String]
  }

  /// Names the method body calls itself, which a parameter must not shadow.
  static let requestNames: Set<String> = [
    "withUnsafeTemporaryAllocation", "marshal", "marshalDestructor", "marshalConstructor",
    "requireVersion", "Marshal",
  ]

  /// Writes a request as a method: it converts the arguments, fills a `wl_argument`
  /// buffer on the stack and sends it, returning the new object of a constructor.
  func emit(
    _ request: MessageSpec, opcode: Int, in interface: InterfaceSpec, into out: inout Output
  ) {
    out.doc(request.description, fallback: "The \(request.name) request.")
    if request.since > 1 {
      out.line("///")
      out.line("/// Since version \(request.since); throws when the object's version is older.")
    }
    let created = request.arguments.first { $0.kind == .newID }
    let generic = created != nil && created?.interface == nil
    // A typed constructor passes the object's own version, so no parameter may take the name.
    var scope = Scope(reserved: Self.requestNames.union(generic ? [] : ["version"]))
    let (arguments, versionName) = requestArguments(request, in: interface, scope: &scope)
    let wireValues = arguments.flatMap(\.wireValues)
    let buffer = scope.claim("arguments")

    let throwing = request.since > 1 ? " throws(WaylandError)" : ""
    var result = ""
    let send: String
    if let created {
      let type = generic ? "T" : objectType(created)
      result = " -> \(type)"
      if let target = created.interface,
        interfaces[target]?.events.contains(where: \.isDestructor) == true
      {
        out.line("@discardableResult")
      }
      let version = generic ? versionName : "version"
      send =
        "return marshalConstructor(opcode: \(opcode), arguments: \(buffer), as: \(type).self, "
        + "version: \(version))"
    } else {
      let function = request.isDestructor ? "marshalDestructor" : "marshal"
      send =
        wireValues.isEmpty
        ? "\(function)(opcode: \(opcode))" : "\(function)(opcode: \(opcode), arguments: \(buffer))"
    }
    let parameters = arguments.flatMap(\.parameters).joined(separator: ", ")
    out.line(
      "public func \(Naming.memberName(request.name))\(generic ? "<T: Interface>" : "")"
        + "(\(parameters))\(throwing)\(result) {")
    out.indent { out in
      if request.since > 1 {
        out.line("try requireVersion(\(request.since), request: \(literal(request.name)))")
      }
      for line in arguments.flatMap(\.preparation) { out.line(line) }
      guard !wireValues.isEmpty else {
        out.line(send)
        return
      }
      out.line(
        "\(created == nil ? "" : "return ")withUnsafeTemporaryAllocation("
          + "of: wl_argument.self, capacity: \(wireValues.count)) { \(buffer) in")
      out.indent { out in
        for (index, value) in wireValues.enumerated() { out.line("\(buffer)[\(index)] = \(value)") }
        out.line(send)
      }
      out.line("}")
    }
    out.line("}")
  }

  /// Describes each argument of a request, with the name of the version parameter of a
  /// generic constructor. Parameters claim their names in `scope` before any temporary does.
  func requestArguments(
    _ request: MessageSpec, in interface: InterfaceSpec, scope: inout Scope
  ) -> (arguments: [RequestArgument], versionName: String) {
    let generic = request.arguments.contains { $0.kind == .newID && $0.interface == nil }
    let names = request.arguments.map { argument in
      switch argument.kind {
      case .newID where argument.interface == nil: scope.claim("type")
      case .newID: ""
      default: scope.claim(Naming.bareMemberName(argument.name))
      }
    }
    let versionName = generic ? scope.claim("version") : "version"
    var described: [RequestArgument] = []
    for (argument, name) in zip(request.arguments, names) {
      let hasParameters = described.contains { !$0.parameters.isEmpty }
      described.append(
        requestArgument(
          argument, named: name, isFirstParameter: !hasParameters, of: request, in: interface,
          versionName: versionName, scope: &scope))
    }
    return (described, versionName)
  }

  /// Describes one argument of a request whose parameter is called `name` in the body.
  func requestArgument(
    _ argument: ArgumentSpec, named name: String, isFirstParameter: Bool, of request: MessageSpec,
    in interface: InterfaceSpec, versionName: String, scope: inout Scope
  ) -> RequestArgument {
    let bare = Naming.bareMemberName(argument.name)
    // `setAnchor(_ anchor:)`, not `setAnchor(anchor:)`: the method already names it.
    let label =
      isFirstParameter
        && Naming.words(request.name).reversed().starts(
          with: Naming.words(argument.name).reversed())
      ? "_" : bare
    let declared = Naming.escaped(label) == name ? label : "\(label) \(name)"
    var parameters = ["\(declared): \(swiftType(of: argument, in: interface))"]
    var preparation: [String] = []
    let wireValues: [String]
    switch argument.kind {
    case .int:
      wireValues = ["wl_argument(i: \(enumUnwrap(name, argument, in: interface, signed: true)))"]
    case .uint:
      wireValues = ["wl_argument(u: \(enumUnwrap(name, argument, in: interface, signed: false)))"]
    case .fixed:
      wireValues = ["wl_argument(f: wlt_fixed_from_double(\(name)))"]
    case .string:
      let cString = scope.claim(bare + "CString")
      preparation = [
        "let \(cString) = Marshal.cString(\(name))", "defer { Marshal.free(\(cString)) }",
      ]
      wireValues = ["wl_argument(s: \(cString))"]
    case .array:
      let array = scope.claim(bare + "Array")
      preparation = ["let \(array) = Marshal.array(\(name))", "defer { Marshal.free(\(array)) }"]
      wireValues = ["wl_argument(a: \(array))"]
    case .fd:
      wireValues = ["wl_argument(h: \(name))"]
    case .object:
      wireValues = ["wl_argument(o: \(name)\(argument.allowNull ? "?" : "").objectPointer)"]
    case .newID where argument.interface == nil:
      let interfaceName = scope.claim("interfaceName")
      let version = versionName == "version" ? "version" : "version \(versionName)"
      parameters = ["_ \(name): T.Type", "\(version): UInt32"]
      preparation = [
        "let \(interfaceName) = Marshal.cString(T.interfaceName)",
        "defer { Marshal.free(\(interfaceName)) }",
      ]
      wireValues = [
        "wl_argument(s: \(interfaceName))", "wl_argument(u: \(versionName))", "wl_argument(n: 0)",
      ]
    case .newID:
      parameters = []
      wireValues = ["wl_argument(n: 0)"]
    }
    return RequestArgument(parameters: parameters, preparation: preparation, wireValues: wireValues)
  }
}
