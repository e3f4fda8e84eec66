#pragma once
/// @file ArgParser.h
/// @brief A small command-line parser for the `tomo` subcommands: `--name value`,
/// `--name=value`, boolean `--flag`s, `-o` as a short alias, and positionals; `--help` text is
/// generated from the declarations. Errors are Status values naming the bad argument.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/base/Status.h"

namespace tomo::cli {

class ArgParser {
  public:
    ArgParser(std::string command, std::string summary);

    /// Declares `--name VALUE` (with an optional short alias such as "o").
    void option(const std::string& name, const std::string& metavar, const std::string& help,
                std::optional<std::string> defaultValue = std::nullopt,
                const std::string& shortName = "");
    /// Declares a boolean `--name`.
    void flag(const std::string& name, const std::string& help);
    /// Declares a positional argument (in order).
    void positional(const std::string& name, const std::string& help, bool required = true);
    /// Free text appended to --help (examples, notes).
    void epilog(const std::string& text) { m_epilog = text; }

    /// Parses argv[first..argc). Unknown options, missing values and missing positionals fail.
    Status parse(int argc, char** argv, int first = 2);

    /// One declared option (the Python module lists them to check and document keywords).
    struct OptionInfo {
        std::string name, metavar, help;
        std::optional<std::string> defaultValue;
        bool isFlag = false;
    };
    std::vector<OptionInfo> options() const;

    bool helpRequested() const { return m_help; }
    std::string help() const;

    bool has(const std::string& name) const;
    /// The value given or its default; nullopt when neither exists.
    std::optional<std::string> get(const std::string& name) const;
    std::string getOr(const std::string& name, const std::string& fallback) const;
    /// Numeric accessors: InvalidArgument naming the option when the value is not a number or is
    /// outside [lo, hi]. Absent options give @p fallback.
    Result<int> getInt(const std::string& name, int fallback, int lo, int hi) const;
    Result<double> getDouble(const std::string& name, double fallback, double lo, double hi) const;

  private:
    struct Spec {
        std::string name, metavar, help, shortName;
        std::optional<std::string> defaultValue;
        bool isFlag = false;
    };
    struct Positional {
        std::string name, help;
        bool required = true;
    };
    const Spec* find(const std::string& token) const;

    std::string m_command, m_summary, m_epilog;
    std::vector<Spec> m_specs;
    std::vector<Positional> m_positionals;
    std::map<std::string, std::string> m_values;
    bool m_help = false;
};

/// Parses "AxB" or "AxBxC" into positive integers (the --shape option).
Result<std::vector<std::size_t>> parseShape(const std::string& text);

}  // namespace tomo::cli
