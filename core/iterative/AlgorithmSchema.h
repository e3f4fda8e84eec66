#pragma once
/// @file AlgorithmSchema.h
/// @brief Every reconstruction algorithm publishes its parameters (name, type, default, range,
/// units) so that the CLI validates them and the GUI builds its form from them with one generic
/// builder; sessions and presets store the values as text keyed by parameter name.

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/Status.h"
#include "core/solvers/LCurve.h"

namespace tomo {

enum class ParameterType { Integer, Real, Boolean, Choice };

/// One parameter of an algorithm.
struct ParameterSpec {
    std::string name;   ///< stable key, e.g. "iterations", "relaxation", "lambda"
    std::string label;  ///< for forms, e.g. "Iterations"
    ParameterType type = ParameterType::Real;
    std::string defaultValue;  ///< as text ("30", "1.0", "true", "ramp")
    double minimum = 0;        ///< inclusive range for Integer and Real
    double maximum = 0;
    bool logScale = false;             ///< suggest a logarithmic slider (e.g. lambda)
    std::vector<std::string> choices;  ///< for Choice
    std::string units;                 ///< "", "iterations", "1/mm", ...
    std::string description;           ///< one sentence, shown as a tooltip and in --help
};

/// One algorithm.
struct AlgorithmSpec {
    std::string id;     ///< "fbp", "sirt", "os-sirt", "sart", "cgls", "tv", "memxct"
    std::string label;  ///< "SIRT"
    bool iterative = true;
    std::string description;  ///< when to use it, one or two sentences
    std::string reference;    ///< paper or DOI
    std::vector<ParameterSpec> parameters;
    /// Empty when the L-curve of its iterations has a corner worth stopping at (methods that
    /// semi-converge: the SIRT family, CGLS, MemXCT); else why not (methods that converge to a
    /// regularised minimum: TV, MBIR). Their stopping rule has no "corner", and neither the CLI
    /// nor the GUI draws one for them (issue 28).
    std::string cornerWhyNot;
};

/// The algorithms of this build, in menu order (FBP first).
std::vector<AlgorithmSpec> algorithmSpecs();
/// NotFound (listing the known ids) when @p id is unknown.
Result<AlgorithmSpec> findAlgorithm(std::string_view id);

/// The corner of the L-curve of @p spec's iterations (core/solvers/IterationCorner.h), or
/// InvalidArgument saying why there is none: spec.cornerWhyNot, or the rule's own reason. The
/// one function behind `tomo recon --lcurve`, the service's report and the GUI's L-curve dock.
Result<std::size_t> iterationCornerOf(const AlgorithmSpec& spec,
                                      std::span<const LCurvePoint> points);

/// @brief Parameter values as text, keyed by ParameterSpec::name, validated against a spec.
class ParameterValues {
  public:
    ParameterValues() = default;
    /// Fills defaults for missing keys and checks every given value: unknown key, unparsable
    /// number, out of range or unknown choice give InvalidArgument naming the parameter.
    static Result<ParameterValues> resolve(const AlgorithmSpec& spec,
                                           const std::map<std::string, std::string>& given);

    /// Typed reads of a resolved value (the spec guarantees presence and type).
    int integer(const std::string& name) const;
    double real(const std::string& name) const;
    bool boolean(const std::string& name) const;
    const std::string& text(const std::string& name) const;
    const std::map<std::string, std::string>& all() const { return m_values; }

  private:
    std::map<std::string, std::string> m_values;
};

}  // namespace tomo
