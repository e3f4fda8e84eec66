#include "PrintDiscovery.h"

#include <iostream>

namespace tomo::test {

void printDiscovery(const DeviceDiscovery& d) {
    std::cout << "[" << d.backend << "] available=" << (d.available ? "yes" : "no")
              << " devices=" << d.devices.size() << (d.message.empty() ? "" : " message: ")
              << d.message << "\n";
    for (const DeviceInfo& i : d.devices) {
        std::cout << "  #" << i.index << " " << i.name << " | vendor " << i.vendor << " | driver "
                  << i.driver << " | " << i.architecture << " | units " << i.computeUnits << " | "
                  << i.clockMHz << " MHz | global " << i.globalMemoryBytes << " B | local "
                  << i.localMemoryBytes << " B" << (i.note.empty() ? "" : " | note: ") << i.note
                  << "\n";
        for (const auto& [k, v] : i.properties)
            std::cout << "      " << k << ": " << v << "\n";
    }
}

}  // namespace tomo::test
