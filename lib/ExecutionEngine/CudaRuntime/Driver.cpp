//===- Driver.cpp - Loading the CUDA driver with dlopen -------------------===//
//
// The driver is found as the dynamic loader finds libraries
// (LD_LIBRARY_PATH, then the system's directories), which is also how the
// tests substitute a fake libcuda.so.1 for the real one.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include <dlfcn.h>
#include <mutex>

using namespace embbag::cuda;

namespace {

/// One entry point: its symbol and where its address goes.
struct Symbol {
  const char *name;
  void **slot;
};

template <typename Fn>
Symbol symbol(const char *name, Fn &slot) {
  return {name, reinterpret_cast<void **>(&slot)};
}

/// Looks up every entry point; on failure says which one is missing.
bool lookUpAll(void *library, Driver &driver, std::string &error) {
  Driver &d = driver;
  const Symbol symbols[] = {
      symbol("cuInit", d.cuInit),
      symbol("cuGetErrorName", d.cuGetErrorName),
      symbol("cuGetErrorString", d.cuGetErrorString),
      symbol("cuDeviceGetCount", d.cuDeviceGetCount),
      symbol("cuDeviceGet", d.cuDeviceGet),
      symbol("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain),
      symbol("cuCtxGetCurrent", d.cuCtxGetCurrent),
      symbol("cuCtxSetCurrent", d.cuCtxSetCurrent),
      symbol("cuModuleLoadDataEx", d.cuModuleLoadDataEx),
      symbol("cuModuleUnload", d.cuModuleUnload),
      symbol("cuModuleGetFunction", d.cuModuleGetFunction),
      symbol("cuLaunchKernel", d.cuLaunchKernel),
      symbol("cuStreamSynchronize", d.cuStreamSynchronize),
      symbol("cuMemHostAlloc", d.cuMemHostAlloc),
      symbol("cuMemFreeHost", d.cuMemFreeHost),
      symbol("cuMemHostGetDevicePointer_v2", d.cuMemHostGetDevicePointer),
      symbol("cuMemAlloc_v2", d.cuMemAlloc),
      symbol("cuMemFree_v2", d.cuMemFree),
  };
  for (const Symbol &s : symbols) {
    *s.slot = dlsym(library, s.name);
    if (!*s.slot) {
      error = std::string("the CUDA driver libcuda.so.1 has no ") + s.name +
              " (a driver older than CUDA 11?)";
      return false;
    }
  }
  return true;
}

/// Opens the library, looks up its entry points and runs cuInit.
bool load(Driver &driver, std::string &error) {
  // Never closed: the driver's threads and the modules loaded into it live
  // until the process ends.
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    error = std::string("cannot load the CUDA driver libcuda.so.1 (is an "
                        "NVIDIA driver installed?): ") +
            (reason ? reason : "unknown reason");
    return false;
  }
  if (!lookUpAll(library, driver, error))
    return false;
  CUresult result = driver.cuInit(0);
  if (result != CUDA_SUCCESS) {
    const char *name = nullptr;
    if (driver.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
      name = "an unknown error";
    error = std::string("cuInit failed: ") + name + " (" +
            std::to_string(result) + ")";
    return false;
  }
  return true;
}

} // namespace

const Driver *embbag::cuda::loadDriver(std::string &error) {
  static Driver driver;
  static std::string loadError;
  static bool loaded = false;
  static std::once_flag once;
  std::call_once(once, [] { loaded = load(driver, loadError); });
  if (!loaded) {
    error = loadError;
    return nullptr;
  }
  return &driver;
}
