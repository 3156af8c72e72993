// The Toast value type lives in ToastModel, which needs no C library, so the
// command can use it without loading Pango; ToastKit users get it from here.
@_exported import ToastModel
