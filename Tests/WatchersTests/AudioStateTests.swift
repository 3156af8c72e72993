import Testing

@testable import Watchers
