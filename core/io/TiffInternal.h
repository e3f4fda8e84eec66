#pragma once
// libtiff helpers shared by TiffIO.cpp (reading) and TiffPageWriter.cpp (writing): per-file error
// and warning handlers (no process-global state) and RAII handles. Included by those .cpp files
// only; libtiff types never reach a public header.
#include <tiffio.h>

#include <cstdarg>
#include <cstdio>
#include <memory>
#include <string>

namespace tomo::tiffio {

/// The line of the ImageDescription that carries a 16-bit scale (TiffFormat.h).
inline constexpr const char* kScaleTag = "TomoStation uint16 scale=";

/// The ImageDescription of a 16-bit page with @p map: ImageJ's calibration (a straight line,
/// value = c0 + c1 * count, in "a.u."; ImageJ and Fiji read it and show values) and TomoStation's
/// own line with the same map (TiffFormat.h).
inline std::string scaleDescription(double scale, double offset) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "ImageJ=1.11a\ncf=0\nc0=%.17g\nc1=%.17g\nvunit=a.u.\n%s%.17g offset=%.17g\n",
                  offset, scale, kScaleTag, scale, offset);
    return text;
}

/// Messages libtiff reported for one file; must outlive the TIFF handle that points to it.
struct TiffMessages {
    std::string errors;
    std::string warnings;
};

inline int collect(std::string& sink, const char* module, const char* fmt, va_list ap) {
    char text[512];
    std::vsnprintf(text, sizeof text, fmt, ap);
    if (!sink.empty()) sink += "; ";
    if (module && *module) sink += std::string(module) + ": ";
    sink += text;
    return 1;  // handled: libtiff does not call its global handler
}

inline int onError(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
    return collect(static_cast<TiffMessages*>(user)->errors, module, fmt, ap);
}

inline int onWarning(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
    return collect(static_cast<TiffMessages*>(user)->warnings, module, fmt, ap);
}

struct OptionsDeleter {
    void operator()(TIFFOpenOptions* o) const { TIFFOpenOptionsFree(o); }
};
struct TiffDeleter {
    void operator()(TIFF* t) const { TIFFClose(t); }
};
using TiffPtr = std::unique_ptr<TIFF, TiffDeleter>;

inline std::unique_ptr<TIFFOpenOptions, OptionsDeleter> makeOptions(TiffMessages& messages) {
    std::unique_ptr<TIFFOpenOptions, OptionsDeleter> opts(TIFFOpenOptionsAlloc());
    if (opts) {
        TIFFOpenOptionsSetErrorHandlerExtR(opts.get(), onError, &messages);
        TIFFOpenOptionsSetWarningHandlerExtR(opts.get(), onWarning, &messages);
    }
    return opts;
}

inline std::string detail(const TiffMessages& m) {
    return m.errors.empty() ? std::string("libtiff reported no details") : m.errors;
}

}  // namespace tomo::tiffio
