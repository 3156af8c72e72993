import CPulse
import Glibc
import SystemSupport

/// PulseAudio's client library (libpulse.so.0), opened with dlopen when
/// `watch audio` starts, and the functions the watcher calls, looked up in
/// it. Nothing links it: no other process of wl-toast loads it (it brings
/// some thirty libraries and about 4 MB).
package struct PulseLibrary {
  let mainloopNew: wlt_pa_mainloop_new
  let mainloopFree: wlt_pa_mainloop_free
  let mainloopGetAPI: wlt_pa_mainloop_get_api
  let mainloopSetPollFunc: wlt_pa_mainloop_set_poll_func
  let mainloopPrepare: wlt_pa_mainloop_prepare
  let mainloopPoll: wlt_pa_mainloop_poll
  let mainloopDispatch: wlt_pa_mainloop_dispatch
  let contextNewWithProplist: wlt_pa_context_new_with_proplist
  let contextConnect: wlt_pa_context_connect
  let contextDisconnect: wlt_pa_context_disconnect
  let contextUnref: wlt_pa_context_unref
  let contextSetStateCallback: wlt_pa_context_set_state_callback
  let contextGetState: wlt_pa_context_get_state
  let contextErrno: wlt_pa_context_errno
  let strerror: wlt_pa_strerror
  let contextSubscribe: wlt_pa_context_subscribe
  let contextSetSubscribeCallback: wlt_pa_context_set_subscribe_callback
  let contextGetServerInfo: wlt_pa_context_get_server_info
  let contextGetSinkInfoByName: wlt_pa_context_get_sink_info_by_name
  let contextGetSourceInfoByName: wlt_pa_context_get_source_info_by_name
  let operationUnref: wlt_pa_operation_unref
  let cvolumeMax: wlt_pa_cvolume_max
  let proplistNew: wlt_pa_proplist_new
  let proplistSets: wlt_pa_proplist_sets
  let proplistFree: wlt_pa_proplist_free

  /// The library's file name.
  package static let fileName = "libpulse.so.0"

  /// Opens the library and looks its functions up.
  ///
  /// - Throws: One line when it is not installed or lacks a function.
  package init() throws(WatchError) {
    let library: LoadedLibrary
    do {
      library = try LoadedLibrary(Self.fileName, context: "watch audio", package: "libpulse0")
    } catch { throw WatchError(error.description) }
    func symbol<T>(_ name: String, as type: T.Type) throws(WatchError) -> T {
      do { return try library.function(name, as: type) } catch {
        throw WatchError(error.description)
      }
    }
    mainloopNew = try symbol("pa_mainloop_new", as: wlt_pa_mainloop_new.self)
    mainloopFree = try symbol("pa_mainloop_free", as: wlt_pa_mainloop_free.self)
    mainloopGetAPI = try symbol("pa_mainloop_get_api", as: wlt_pa_mainloop_get_api.self)
    mainloopSetPollFunc = try symbol(
      "pa_mainloop_set_poll_func", as: wlt_pa_mainloop_set_poll_func.self)
    mainloopPrepare = try symbol("pa_mainloop_prepare", as: wlt_pa_mainloop_prepare.self)
    mainloopPoll = try symbol("pa_mainloop_poll", as: wlt_pa_mainloop_poll.self)
    mainloopDispatch = try symbol("pa_mainloop_dispatch", as: wlt_pa_mainloop_dispatch.self)
    contextNewWithProplist = try symbol(
      "pa_context_new_with_proplist", as: wlt_pa_context_new_with_proplist.self)
    contextConnect = try symbol("pa_context_connect", as: wlt_pa_context_connect.self)
    contextDisconnect = try symbol("pa_context_disconnect", as: wlt_pa_context_disconnect.self)
    contextUnref = try symbol("pa_context_unref", as: wlt_pa_context_unref.self)
    contextSetStateCallback = try symbol(
      "pa_context_set_state_callback", as: wlt_pa_context_set_state_callback.self)
    contextGetState = try symbol("pa_context_get_state", as: wlt_pa_context_get_state.self)
    contextErrno = try symbol("pa_context_errno", as: wlt_pa_context_errno.self)
    strerror = try symbol("pa_strerror", as: wlt_pa_strerror.self)
    contextSubscribe = try symbol("pa_context_subscribe", as: wlt_pa_context_subscribe.self)
    contextSetSubscribeCallback = try symbol(
      "pa_context_set_subscribe_callback", as: wlt_pa_context_set_subscribe_callback.self)
    contextGetServerInfo = try symbol(
      "pa_context_get_server_info", as: wlt_pa_context_get_server_info.self)
    contextGetSinkInfoByName = try symbol(
      "pa_context_get_sink_info_by_name", as: wlt_pa_context_get_sink_info_by_name.self)
    contextGetSourceInfoByName = try symbol(
      "pa_context_get_source_info_by_name", as: wlt_pa_context_get_source_info_by_name.self)
    operationUnref = try symbol("pa_operation_unref", as: wlt_pa_operation_unref.self)
    cvolumeMax = try symbol("pa_cvolume_max", as: wlt_pa_cvolume_max.self)
    proplistNew = try symbol("pa_proplist_new", as: wlt_pa_proplist_new.self)
    proplistSets = try symbol("pa_proplist_sets", as: wlt_pa_proplist_sets.self)
    proplistFree = try symbol("pa_proplist_free", as: wlt_pa_proplist_free.self)
  }
}
