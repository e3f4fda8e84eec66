// Names of the queue roles (DeviceQueues.h).
#include "core/pipeline/DeviceQueues.h"

namespace tomo {

const char* queueRoleName(QueueRole role) {
    switch (role) {
        case QueueRole::Upload:
            return "upload";
        case QueueRole::Compute:
            return "compute";
        case QueueRole::Download:
            return "download";
    }
    return "?";
}

}  // namespace tomo
