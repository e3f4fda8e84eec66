#pragma once
/// @file Flags.h
/// @brief Keywords of the Python functions as the flags of the `tomo` command of the same job,
/// parsed by that command's own parser (app/cli/*Args.h), so that a keyword means what the
/// flag means and a bad value gives the CLI's message.
///
/// tomostation/_flags.py turns `center=1023.5, filter="hann"` into
/// ["--center=1023.5", "--filter=hann"]; this side prepends "tomo <command> <positional>" and
/// parses.

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "app/cli/ArgParser.h"

namespace tomo::python {

namespace py = pybind11;

/// argv of `tomo <command> [positionals...] [flags...]` with stable storage.
class Argv {
  public:
    Argv(const std::string& command, const std::vector<std::string>& positionals,
         const std::vector<std::string>& flags);
    Argv(const Argv&) = delete;
    Argv& operator=(const Argv&) = delete;
    int argc() const { return static_cast<int>(m_pointers.size()); }
    char** argv() { return m_pointers.data(); }

  private:
    std::vector<std::string> m_storage;
    std::vector<char*> m_pointers;
};

/// @p parser after parsing @p argv; raises the parser's error (InvalidArgumentError).
cli::ArgParser parse(cli::ArgParser parser, Argv& argv);

/// The options of @p parser as a list of dicts (name, metavar, help, default, flag).
py::list optionList(const cli::ArgParser& parser);

}  // namespace tomo::python
