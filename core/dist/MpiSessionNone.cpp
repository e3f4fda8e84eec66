// A build without MPI (MpiSession.h): one process only.
#include "core/dist/MpiSession.h"

#include <cstdlib>

namespace tomo {

bool mpiCompiled() {
    return false;
}

std::string mpiDescription() {
    return "no MPI in this build";
}

Result<std::unique_ptr<MpiSession>> MpiSession::start(int&, char**&) {
    return unsupported(
        "this build has no MPI (install libopenmpi-dev and rebuild): run tomo without mpirun");
}

MpiSession::~MpiSession() = default;

std::unique_ptr<Communicator> MpiSession::world() const {
    return singleProcess();
}

void MpiSession::abort(int exitCode) const {
    std::_Exit(exitCode);
}

}  // namespace tomo
