// The notification rules (NotificationCriteria, NotificationRule) live in
// ToastProtocol, where the light command reads them from the configuration
// without linking GIO; the server gets them with this module.
@_exported import ToastProtocol
