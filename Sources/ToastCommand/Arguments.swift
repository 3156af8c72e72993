import ToastKit
