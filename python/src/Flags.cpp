// Keywords as the flags of the `tomo` command of the same job (Flags.h).
#include "python/src/Flags.h"

#include "python/src/Errors.h"

namespace tomo::python {

Argv::Argv(const std::string& command, const std::vector<std::string>& positionals,
           const std::vector<std::string>& flags) {
    m_storage.push_back("tomo");
    m_storage.push_back(command);
    m_storage.insert(m_storage.end(), positionals.begin(), positionals.end());
    m_storage.insert(m_storage.end(), flags.begin(), flags.end());
    for (std::string& s : m_storage)
        m_pointers.push_back(s.data());
}

cli::ArgParser parse(cli::ArgParser parser, Argv& argv) {
    check(parser.parse(argv.argc(), argv.argv()));
    return parser;
}

py::list optionList(const cli::ArgParser& parser) {
    py::list out;
    for (const cli::ArgParser::OptionInfo& o : parser.options()) {
        py::dict d;
        d["name"] = o.name;
        d["metavar"] = o.metavar;
        d["help"] = o.help;
        d["default"] =
            o.defaultValue ? py::object(py::str(*o.defaultValue)) : py::object(py::none());
        d["flag"] = o.isFlag;
        out.append(d);
    }
    return out;
}

}  // namespace tomo::python
