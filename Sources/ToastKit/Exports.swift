// The presenter's event loop (``ToastPresenter/eventLoop``) is SystemSupport's.
@_exported import SystemSupport
// The Toast value type lives in ToastModel, which needs no C library, so the
// command can use it without loading Pango; ToastKit users get it from here.
@_exported import ToastModel
