// sched_setscheduler for one thread of this process, between SCHED_IDLE and SCHED_OTHER. Built
// by scripts/build-native.ts into <dist>/native/thread-idle.node; see
// page-store/thread-idle.ts for when a render worker runs in the machine's idle time only.
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <node_api.h>

// setIdle(tid, idle): 0 when done, else the errno (EPERM: leaving SCHED_IDLE needs CAP_SYS_NICE
// or an RLIMIT_NICE that allows the thread's nice value). The thread's nice value is kept.
static napi_value SetIdle(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t tid = 0;
  bool idle = false;
  napi_value result;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 ||
      napi_get_value_int32(env, argv[0], &tid) != napi_ok || napi_get_value_bool(env, argv[1], &idle) != napi_ok ||
      tid <= 0) {
    napi_create_int32(env, EINVAL, &result);
    return result;
  }
  struct sched_param param = {0};
  int rc = sched_setscheduler(tid, idle ? SCHED_IDLE : SCHED_OTHER, &param);
  napi_create_int32(env, rc == 0 ? 0 : errno, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value setIdle;
  napi_create_function(env, "setIdle", NAPI_AUTO_LENGTH, SetIdle, NULL, &setIdle);
  napi_set_named_property(env, exports, "setIdle", setIdle);
  return exports;
}
