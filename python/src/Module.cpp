// tomostation._tomostation: the C++ half of the Python package (python/tomostation is the
// other). Every function calls the reconstruction service or core through the CLI's own
// parsers (app/cli/*Args.h); nothing here reconstructs.
#include "python/src/Bindings.h"

PYBIND11_MODULE(_tomostation, m) {
    m.doc() = "TomoStation's C++ core (use the tomostation package, not this module)";
    tomo::python::bindCone(m);  // before recon(): its signature names ConeGeometryFile
    tomo::python::bindRecon(m);
    tomo::python::bindData(m);
    tomo::python::bindDevices(m);
}
