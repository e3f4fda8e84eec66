// RTK's ThreeDCircularProjectionGeometry XML: a flat list of elements, read with a small
// tag scanner (no DTD, no entities beyond the document's own text). See ConeGeometryIo.h.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "core/cone/ConeGeometryIo.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {
namespace {

constexpr double kDeg = kPi / 180.0;

struct Tag {
    std::string name;  ///< without '/'
    bool closing = false, selfClosing = false;
    std::string attributes;
    std::size_t end = 0;  ///< offset after '>'
};

/// The next tag at or after @p pos (skipping <?...?>, <!...> and comments); nullopt at the end.
Result<std::optional<Tag>> nextTag(const std::string& s, std::size_t pos) {
    for (;;) {
        const std::size_t lt = s.find('<', pos);
        if (lt == std::string::npos) return std::optional<Tag>{};
        if (s.compare(lt, 4, "<!--") == 0) {
            const std::size_t e = s.find("-->", lt);
            if (e == std::string::npos) return invalidData("unterminated comment");
            pos = e + 3;
            continue;
        }
        const std::size_t gt = s.find('>', lt);
        if (gt == std::string::npos)
            return invalidData("unterminated tag at offset " + std::to_string(lt));
        if (s[lt + 1] == '?' || s[lt + 1] == '!') {
            pos = gt + 1;
            continue;
        }
        Tag t;
        std::string inner = s.substr(lt + 1, gt - lt - 1);
        if (!inner.empty() && inner.front() == '/') {
            t.closing = true;
            inner.erase(0, 1);
        }
        if (!inner.empty() && inner.back() == '/') {
            t.selfClosing = true;
            inner.pop_back();
        }
        const std::size_t sp = inner.find_first_of(" \t\r\n");
        t.name = inner.substr(0, sp);
        if (sp != std::string::npos) t.attributes = inner.substr(sp);
        t.end = gt + 1;
        return std::optional<Tag>{t};
    }
}

Result<double> number(const std::string& text, const std::string& element) {
    const char* begin = text.c_str();
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    while (end && (*end == ' ' || *end == '\n' || *end == '\r' || *end == '\t'))
        ++end;
    if (end == begin || !end || *end != '\0' || !std::isfinite(v))
        return invalidData("<" + element + ">: not a number: '" + text + "'");
    return v;
}

/// Applies one parameter element to @p v; false if the name is not a parameter.
Result<bool> applyParameter(ConeView& v, const std::string& name, const std::string& text) {
    static const std::map<std::string, std::pair<double ConeView::*, double>> kParams = {
        {"SourceToIsocenterDistance", {&ConeView::sid, 1.0}},
        {"SourceToDetectorDistance", {&ConeView::sdd, 1.0}},
        {"GantryAngle", {&ConeView::gantryAngle, kDeg}},
        {"Angle", {&ConeView::gantryAngle, kDeg}},  // RTK's older name
        {"ProjectionOffsetX", {&ConeView::projOffsetX, 1.0}},
        {"ProjectionOffsetY", {&ConeView::projOffsetY, 1.0}},
        {"OutOfPlaneAngle", {&ConeView::outOfPlaneAngle, kDeg}},
        {"InPlaneAngle", {&ConeView::inPlaneAngle, kDeg}},
        {"SourceOffsetX", {&ConeView::sourceOffsetX, 1.0}},
        {"SourceOffsetY", {&ConeView::sourceOffsetY, 1.0}},
    };
    auto it = kParams.find(name);
    if (it == kParams.end()) return false;
    TOMO_ASSIGN_OR_RETURN(double value, number(text, name));
    v.*(it->second.first) = value * it->second.second;
    return true;
}

Result<Matrix34> parseMatrix(const std::string& text) {
    std::istringstream in(text);
    Matrix34 m{};
    for (auto& row : m)
        for (double& x : row)
            if (!(in >> x) || !std::isfinite(x))
                return invalidData("<Matrix>: 12 numbers expected");
    return m;
}

Status checkMatrix(const std::vector<ConeView>& views, const Matrix34& given) {
    auto g = ConeGeometry::create(views, DetectorGrid::centred(2, 2, 1, 1));
    if (!g.isOk()) return g.status();
    const int k = g->viewCount() - 1;
    const Matrix34 m = g->matrix(k);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c)
            if (std::abs(m[r][c] - given[r][c]) > 0.001)
                return invalidData("view " + std::to_string(k) +
                                   ": its <Matrix> and its parameters are not consistent "
                                   "(entry " +
                                   std::to_string(r) + "," + std::to_string(c) + ": file " +
                                   std::to_string(given[r][c]) + ", computed " +
                                   std::to_string(m[r][c]) + ")");
    return Status::ok();
}

Status checkRoot(const Tag& t) {
    if (t.name != "RTKThreeDCircularGeometry")
        return invalidData("not an RTK circular geometry file (root element <" + t.name + ">)");
    const std::size_t at = t.attributes.find("version=");
    if (at != std::string::npos) {
        const int version = std::atoi(t.attributes.c_str() + at + 9);
        if (version != 2 && version != 3)
            return invalidData("RTK geometry version " + std::to_string(version) +
                               " is not supported (2 and 3 are)");
    }
    return Status::ok();
}

}  // namespace

Result<ConeGeometryFile> parseRtkGeometryXml(const std::string& text) {
    ConeGeometryFile out;
    out.format = "rtk-xml";
    ConeView current;  // sticky values, as in RTK's reader
    current.sid = 0;
    current.sdd = 0;
    bool rootSeen = false, inProjection = false, sidSeen = false, sddSeen = false;
    std::optional<Matrix34> matrix;
    std::size_t pos = 0, textStart = 0;
    for (;;) {
        TOMO_ASSIGN_OR_RETURN(std::optional<Tag> tag, nextTag(text, pos));
        if (!tag) break;
        const std::size_t tagStart = text.rfind('<', tag->end - 1);
        pos = tag->end;
        if (!rootSeen) {
            if (tag->closing) return invalidData("unexpected </" + tag->name + ">");
            TOMO_RETURN_IF_ERROR(checkRoot(*tag));
            rootSeen = true;
            continue;
        }
        if (!tag->closing) {
            textStart = tag->end;
            if (tag->name == "Projection") {
                inProjection = true;
                matrix.reset();
            }
            continue;
        }
        const std::string content = text.substr(textStart, tagStart - textStart);
        if (tag->name == "Projection") {
            if (!inProjection) return invalidData("</Projection> without <Projection>");
            if (!sidSeen || !sddSeen)
                return invalidData("view " + std::to_string(out.views.size()) +
                                   ": SourceToIsocenterDistance and SourceToDetectorDistance "
                                   "are required");
            out.views.push_back(current);
            if (matrix) TOMO_RETURN_IF_ERROR(checkMatrix(out.views, *matrix));
            inProjection = false;
        } else if (tag->name == "Matrix") {
            TOMO_ASSIGN_OR_RETURN(Matrix34 m, parseMatrix(content));
            matrix = m;
        } else if (tag->name == "RadiusCylindricalDetector") {
            TOMO_ASSIGN_OR_RETURN(double r, number(content, tag->name));
            if (r != 0) return unsupported("cylindrical detectors are not supported (flat only)");
        } else if (tag->name.rfind("Collimation", 0) == 0 ||
                   tag->name == "RTKThreeDCircularGeometry") {
            // Collimation bounds do not change FDK's weights; the root's end closes the file.
        } else {
            TOMO_ASSIGN_OR_RETURN(bool known, applyParameter(current, tag->name, content));
            if (!known) return invalidData("unknown element <" + tag->name + ">");
            sidSeen |= tag->name == "SourceToIsocenterDistance";
            sddSeen |= tag->name == "SourceToDetectorDistance";
        }
    }
    if (!rootSeen) return invalidData("not an XML geometry file (no root element)");
    if (out.views.empty()) return invalidData("the geometry file has no <Projection>");
    auto check = ConeGeometry::create(out.views, DetectorGrid::centred(2, 2, 1, 1));
    if (!check.isOk()) return invalidData(check.status().message());
    return out;
}

std::string rtkGeometryXml(const ConeGeometry& g) {
    struct Param {
        const char* name;
        double ConeView::*field;
        double scale;
    };
    const Param params[] = {
        {"SourceToIsocenterDistance", &ConeView::sid, 1.0},
        {"SourceToDetectorDistance", &ConeView::sdd, 1.0},
        {"SourceOffsetX", &ConeView::sourceOffsetX, 1.0},
        {"SourceOffsetY", &ConeView::sourceOffsetY, 1.0},
        {"ProjectionOffsetX", &ConeView::projOffsetX, 1.0},
        {"ProjectionOffsetY", &ConeView::projOffsetY, 1.0},
        {"InPlaneAngle", &ConeView::inPlaneAngle, 1.0 / kDeg},
        {"OutOfPlaneAngle", &ConeView::outOfPlaneAngle, 1.0 / kDeg},
    };
    auto fmt = [](double v) {
        char b[40];
        std::snprintf(b, sizeof b, "%.15g", v);
        return std::string(b);
    };
    std::string out =
        "<?xml version=\"1.0\"?>\n<!DOCTYPE RTKGEOMETRY>\n<RTKThreeDCircularGeometry "
        "version=\"3\">\n";
    std::vector<bool> global;
    for (const Param& p : params) {
        bool constant = true;
        for (const ConeView& v : g.views())
            constant &= v.*p.field == g.view(0).*p.field;
        global.push_back(constant);
        if (constant && g.view(0).*p.field != 0.0)
            out += std::string("  <") + p.name + ">" + fmt(g.view(0).*p.field * p.scale) + "</" +
                   p.name + ">\n";
    }
    for (int k = 0; k < g.viewCount(); ++k) {
        const ConeView& v = g.view(k);
        out += "  <Projection>\n    <GantryAngle>" + fmt(v.gantryAngle / kDeg) + "</GantryAngle>\n";
        for (std::size_t i = 0; i < std::size(params); ++i)
            if (!global[i])
                out += std::string("    <") + params[i].name + ">" +
                       fmt(v.*params[i].field * params[i].scale) + "</" + params[i].name + ">\n";
        out += "    <Matrix>\n";
        const Matrix34 m = g.matrix(k);
        for (const auto& row : m)
            out += "      " + fmt(row[0]) + " " + fmt(row[1]) + " " + fmt(row[2]) + " " +
                   fmt(row[3]) + "\n";
        out += "    </Matrix>\n  </Projection>\n";
    }
    out += "</RTKThreeDCircularGeometry>\n";
    return out;
}

}  // namespace tomo
