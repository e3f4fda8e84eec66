// Direct or Fourier-domain FBP by predicted time and error (MethodChoice.h).
#include "core/selection/MethodChoice.h"

#include <cstdio>

namespace tomo {

MethodChoice chooseMethod(const MethodJob& job, const std::string& directId, double directGups,
                          const FourierPlan& plan, const FourierMethodInfo& method,
                          double tolerance) {
    MethodChoice c;
    // Both methods run on the same backend: on a device both move the same bytes.
    const double bytes =
        4.0 * job.slices * (double(job.views) * job.detectors + double(job.nx) * job.ny);
    const double transfer = bytes * method.secondsPerTransferByte;
    const double updates = double(job.nx) * job.ny * job.views * job.slices;
    c.direct = {directId, directGups > 0 ? updates / (directGups * 1e9) + transfer : 0.0, 0.0};
    c.fourierEstimate = {method.id, plan.predictedSeconds(method.cost, job.slices) + transfer,
                         plan.choice().predictedError};
    const bool meets = c.fourierEstimate.error <= tolerance;
    c.fourier = meets && (directGups <= 0 || c.fourierEstimate.seconds < c.direct.seconds);
    char text[320];
    std::snprintf(text, sizeof text,
                  "method auto: %s (%s predicted %.3g s, gridding error %.1e %s tolerance "
                  "%.1e; direct FBP with %s predicted %.3g s)",
                  c.fourier ? "Fourier (gridrec)" : "direct FBP", method.id.c_str(),
                  c.fourierEstimate.seconds, c.fourierEstimate.error, meets ? "within" : "over",
                  tolerance, directId.c_str(), c.direct.seconds);
    c.reason = text;
    return c;
}

}  // namespace tomo
