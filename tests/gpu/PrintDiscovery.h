#pragma once
// Prints a DeviceDiscovery on stdout so that test logs show what each backend saw.
#include "core/devices/DeviceInfo.h"

namespace tomo::test {

void printDiscovery(const DeviceDiscovery& d);

}  // namespace tomo::test
