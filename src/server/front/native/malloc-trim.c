// malloc_trim(0) for Node (glibc only): hands the pages glibc keeps after a burst of allocations
// (a pre-render, random readers) back to the system. Built by scripts/build-native.ts into
// <dist>/native/malloc-trim.node; see memory-trim.ts for when the server calls it.
#include <malloc.h>
#include <node_api.h>

static napi_value Trim(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value released;
  napi_get_boolean(env, malloc_trim(0) == 1, &released);
  return released;
}

NAPI_MODULE_INIT() {
  napi_value trim;
  napi_create_function(env, "trim", NAPI_AUTO_LENGTH, Trim, NULL, &trim);
  napi_set_named_property(env, exports, "trim", trim);
  return exports;
}
