"""What a reconstruction reports besides its image."""


class Report:
    """The reconstruction service's report (app/recon/ReconService.h ReconReport).

    Attributes (every key of the dict is also an attribute): ``algorithm``, ``variant`` (the
    back-projector or operator that ran), ``backend``, ``shape``, ``timings`` (seconds:
    ``filtering``, ``back_projection``, ``total``), ``iterations``, ``reason``,
    ``stopped_early``, ``curve`` (one dict per iteration: residual, solution_norm, error),
    ``corner``, ``kept_iterations``, ``metrics`` (against ``truth``: rmse, psnr, ssim,
    max_error), ``notes`` (fallbacks, parameters ignored), ``provenance`` (what a file written
    from it stores), ``fdk`` (cone beam: stage times), ``input_address`` (the address the
    input was read from: the array's own when it was not copied) and ``input_copied``.
    """

    def __init__(self, values):
        self.__dict__.update(values)

    def to_dict(self):
        return dict(self.__dict__)

    def __repr__(self):
        t = self.timings.get("total", 0.0) if isinstance(self.timings, dict) else 0.0
        its = f", {self.iterations} iterations ({self.reason})" if self.iterations else ""
        return (f"Report({self.algorithm} on {self.variant} [{self.backend}], shape "
                f"{tuple(self.shape)}{its}, {t:.3f} s)")
