#include "app/cli/ArgParser.h"

#include <cmath>
#include <sstream>

namespace tomo::cli {

ArgParser::ArgParser(std::string command, std::string summary)
    : m_command(std::move(command)), m_summary(std::move(summary)) {}

void ArgParser::option(const std::string& name, const std::string& metavar, const std::string& help,
                       std::optional<std::string> defaultValue, const std::string& shortName) {
    m_specs.push_back({name, metavar, help, shortName, std::move(defaultValue), false});
}

void ArgParser::flag(const std::string& name, const std::string& help) {
    m_specs.push_back({name, "", help, "", std::nullopt, true});
}

void ArgParser::positional(const std::string& name, const std::string& help, bool required) {
    m_positionals.push_back({name, help, required});
}

const ArgParser::Spec* ArgParser::find(const std::string& token) const {
    for (const Spec& s : m_specs) {
        if (token == "--" + s.name) return &s;
        if (!s.shortName.empty() && token == "-" + s.shortName) return &s;
    }
    return nullptr;
}

Status ArgParser::parse(int argc, char** argv, int first) {
    std::size_t nextPositional = 0;
    for (int i = first; i < argc; ++i) {
        std::string token = argv[i];
        if (token == "--help" || token == "-h") {
            m_help = true;
            return Status::ok();
        }
        if (token.size() > 1 && token[0] == '-' && !(token.size() > 1 && std::isdigit(token[1]))) {
            std::string value;
            bool inlineValue = false;
            if (auto eq = token.find('='); eq != std::string::npos && token.rfind("--", 0) == 0) {
                value = token.substr(eq + 1);
                token = token.substr(0, eq);
                inlineValue = true;
            }
            const Spec* spec = find(token);
            if (!spec)
                return invalidArgument("unknown option '" + token + "' for 'tomo " + m_command +
                                       "' (see tomo " + m_command + " --help)");
            if (spec->isFlag) {
                if (inlineValue)
                    return invalidArgument("option --" + spec->name + " takes no value");
                m_values[spec->name] = "1";
                continue;
            }
            if (!inlineValue) {
                if (i + 1 >= argc)
                    return invalidArgument("option " + token + " needs a value (" + spec->metavar +
                                           ")");
                value = argv[++i];
            }
            m_values[spec->name] = value;
            continue;
        }
        if (nextPositional >= m_positionals.size())
            return invalidArgument("unexpected argument '" + token + "' for 'tomo " + m_command +
                                   "'");
        m_values[m_positionals[nextPositional++].name] = token;
    }
    for (std::size_t k = nextPositional; k < m_positionals.size(); ++k)
        if (m_positionals[k].required)
            return invalidArgument("missing " + m_positionals[k].name + " (see tomo " + m_command +
                                   " --help)");
    return Status::ok();
}

std::string ArgParser::help() const {
    std::ostringstream os;
    os << "usage: tomo " << m_command;
    for (const Positional& p : m_positionals)
        os << (p.required ? " " : " [") << p.name << (p.required ? "" : "]");
    os << " [options]\n\n" << m_summary << "\n";
    if (!m_positionals.empty()) {
        os << "\narguments:\n";
        for (const Positional& p : m_positionals)
            os << "  " << p.name << "\n      " << p.help << "\n";
    }
    os << "\noptions:\n";
    for (const Spec& s : m_specs) {
        os << "  ";
        if (!s.shortName.empty()) os << "-" << s.shortName << ", ";
        os << "--" << s.name;
        if (!s.isFlag) os << " " << s.metavar;
        os << "\n      " << s.help;
        if (s.defaultValue) os << " (default: " << *s.defaultValue << ")";
        os << "\n";
    }
    os << "  -h, --help\n      show this help\n";
    if (!m_epilog.empty()) os << "\n" << m_epilog << "\n";
    return os.str();
}

std::vector<ArgParser::OptionInfo> ArgParser::options() const {
    std::vector<OptionInfo> out;
    for (const Spec& s : m_specs)
        out.push_back({s.name, s.metavar, s.help, s.defaultValue, s.isFlag});
    return out;
}

bool ArgParser::has(const std::string& name) const {
    return m_values.count(name) > 0;
}

std::optional<std::string> ArgParser::get(const std::string& name) const {
    if (auto it = m_values.find(name); it != m_values.end()) return it->second;
    for (const Spec& s : m_specs)
        if (s.name == name) return s.defaultValue;
    return std::nullopt;
}

std::string ArgParser::getOr(const std::string& name, const std::string& fallback) const {
    auto v = get(name);
    return v ? *v : fallback;
}

Result<double> ArgParser::getDouble(const std::string& name, double fallback, double lo,
                                    double hi) const {
    auto v = get(name);
    if (!v) return fallback;
    double d = 0;
    std::size_t used = 0;
    try {
        d = std::stod(*v, &used);
    } catch (...) {
        used = 0;
    }
    if (used != v->size() || v->empty() || !std::isfinite(d))
        return invalidArgument("--" + name + " expects a number, got '" + *v + "'");
    if (d < lo || d > hi)
        return invalidArgument("--" + name + " must be in [" + std::to_string(lo) + ", " +
                               std::to_string(hi) + "], got " + *v);
    return d;
}

Result<int> ArgParser::getInt(const std::string& name, int fallback, int lo, int hi) const {
    auto v = get(name);
    if (!v) return fallback;
    TOMO_ASSIGN_OR_RETURN(double d, getDouble(name, fallback, lo, hi));
    if (d != std::floor(d))
        return invalidArgument("--" + name + " expects an integer, got '" + *v + "'");
    return static_cast<int>(d);
}

Result<std::vector<std::size_t>> parseShape(const std::string& text) {
    std::vector<std::size_t> dims;
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, 'x');) {
        std::size_t used = 0;
        long long v = 0;
        try {
            v = std::stoll(item, &used);
        } catch (...) {
            used = 0;
        }
        if (used != item.size() || item.empty() || v <= 0 || v > (1LL << 31))
            return invalidArgument("--shape '" + text +
                                   "' must be positive integers like 720x768 or 720x768x4");
        dims.push_back(static_cast<std::size_t>(v));
    }
    if (dims.size() < 2 || dims.size() > 3)
        return invalidArgument("--shape '" + text + "' must be ANGLESxDETECTORS[xSLICES]");
    return dims;
}

}  // namespace tomo::cli
