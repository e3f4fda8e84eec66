// numpy arrays in and out without copies where the layout allows (Arrays.h).
#include "python/src/Arrays.h"

#include <cstring>

#include "python/src/Errors.h"

namespace tomo::python {
namespace {

std::string shapeText(const py::array& a) {
    std::string s = "(";
    for (py::ssize_t i = 0; i < a.ndim(); ++i)
        s += (i ? ", " : "") + std::to_string(a.shape(i));
    return s + (a.ndim() == 1 ? ",)" : ")");
}

/// Why @p a cannot be borrowed as float32 with a contiguous last axis ("" when it can).
std::string conversionReason(const py::array& a) {
    // Python-level attributes: the descriptor's C layout differs between numpy 1 and 2.
    const py::object dt = a.attr("dtype");
    if (dt.attr("kind").cast<std::string>() != "f" || dt.attr("itemsize").cast<int>() != 4 ||
        !dt.attr("isnative").cast<bool>())
        return "dtype " + py::str(dt).cast<std::string>() + " is not native float32";
    if (reinterpret_cast<std::uintptr_t>(a.data()) % alignof(float) != 0)
        return "its data are not aligned to 4 bytes";
    for (py::ssize_t i = 0; i < a.ndim(); ++i) {
        const py::ssize_t stride = a.strides(i);
        const bool last = i == a.ndim() - 1;
        if (a.shape(i) > 1 && (last ? stride != 4 : stride <= 0 || stride % 4 != 0))
            return last ? "its last axis is not contiguous" : "an axis has a negative stride";
    }
    return "";
}

/// Planes [first, first + count) of @p a copied into an Array3 (a slab of a source); the
/// stop token is checked per plane. @p what names the planes in the range error.
Result<Array3<float>> copyPlanes(const Float3& a, std::size_t first, std::size_t count,
                                 const char* what, const std::stop_token& stop) {
    if (count == 0 || first > a.shape[0] || count > a.shape[0] - first)
        return invalidArgument(std::string(what) + " " + std::to_string(first) + "+" +
                               std::to_string(count) + " lie outside the " +
                               std::to_string(a.shape[0]) + " of the input");
    TOMO_ASSIGN_OR_RETURN(auto out, Array3<float>::create(count, a.shape[1], a.shape[2]));
    for (std::size_t i = 0; i < count; ++i) {
        TOMO_RETURN_IF_ERROR(checkStop(stop));
        for (std::size_t r = 0; r < a.shape[1]; ++r)
            std::memcpy(out.row(i, r).data(), a.row(first + i, r), a.shape[2] * sizeof(float));
    }
    return out;
}

/// Holds a borrowed array; releases its Python owner with the GIL.
struct Borrowed {
    explicit Borrowed(Float3 a_) : a(std::move(a_)) {}
    ~Borrowed() {
        py::gil_scoped_acquire gil;
        a.owner = py::object();
    }
    Borrowed(const Borrowed&) = delete;
    Borrowed& operator=(const Borrowed&) = delete;
    Float3 a;
};

class BorrowedSinograms final : public app::SinogramSource {
  public:
    explicit BorrowedSinograms(Float3 a) : m(std::move(a)) {}
    std::array<std::size_t, 3> shape() const override { return m.a.shape; }
    Result<Sinograms> read(std::size_t first, std::size_t count,
                           const ExecContext& ctx) const override {
        return copyPlanes(m.a, first, count, "slices", ctx.stop);
    }

  private:
    Borrowed m;
};

class BorrowedProjections final : public app::ProjectionSource {
  public:
    explicit BorrowedProjections(Float3 a) : m(std::move(a)) {}
    std::array<std::size_t, 3> shape() const override { return m.a.shape; }
    Result<Array3<float>> read(std::size_t first, std::size_t count) const override {
        return copyPlanes(m.a, first, count, "views", {});
    }

  private:
    Borrowed m;
};

}  // namespace

Float3 borrowFloat3(py::handle obj, const std::string& what, const std::string& layout,
                    bool allow2d) {
    Float3 out;
    const py::module_ np = py::module_::import("numpy");
    py::array a;
    if (py::isinstance<py::array>(obj)) {
        a = py::reinterpret_borrow<py::array>(obj);
    } else {
        a = np.attr("asarray")(obj, "float32");
        out.converted = true;
        warnConversion(what + ": a " +
                       py::str(py::type::of(obj).attr("__name__")).cast<std::string>() +
                       " was converted to a float32 numpy array");
    }
    const std::string kind = a.attr("dtype").attr("kind").cast<std::string>();
    if (kind == "c" || kind == "O" || kind == "U" || kind == "S")
        raise(invalidArgument(what + ": dtype " + py::str(a.attr("dtype")).cast<std::string>() +
                              " has no float32 values"));
    const bool rankOk = a.ndim() == 3 || (allow2d && a.ndim() == 2);
    if (!rankOk)
        raise(invalidArgument(what + ": expected " + layout + ", got an array of shape " +
                              shapeText(a)));
    for (py::ssize_t i = 0; i < a.ndim(); ++i)
        if (a.shape(i) == 0)
            raise(invalidArgument(what + ": the array of shape " + shapeText(a) + " is empty"));
    if (const std::string why = conversionReason(a); !why.empty()) {
        warnConversion(what + ": copied to a C-order float32 array because " + why +
                       " (pass np.ascontiguousarray(x, dtype=np.float32) to avoid the copy)");
        a = np.attr("ascontiguousarray")(a, "float32");
        out.converted = true;
    }
    out.ndim = static_cast<int>(a.ndim());
    const int skip = 3 - out.ndim;  // a 2-D array is one plane
    out.shape = {1, 1, 1};
    out.strides = {0, 0, 1};
    for (int i = 0; i < out.ndim; ++i) {
        out.shape[static_cast<std::size_t>(i + skip)] = static_cast<std::size_t>(a.shape(i));
        out.strides[static_cast<std::size_t>(i + skip)] =
            static_cast<std::size_t>(a.shape(i) > 1 ? a.strides(i) / 4 : 0);
    }
    out.strides[2] = 1;
    out.data = static_cast<const float*>(a.data());
    out.owner = std::move(a);
    return out;
}

Array3<float> copyToArray3(const Float3& a) {
    return unwrap(copyPlanes(a, 0, a.shape[0], "planes", {}));
}

std::unique_ptr<app::SinogramSource> borrowedSinograms(const Float3& a) {
    return std::make_unique<BorrowedSinograms>(a);
}

std::unique_ptr<app::ProjectionSource> borrowedProjections(const Float3& a) {
    return std::make_unique<BorrowedProjections>(a);
}

py::array toNumpy(Array3<float>&& a, int ndim) {
    auto* held = new Array3<float>(std::move(a));
    py::capsule owner(held, [](void* p) { delete static_cast<Array3<float>*>(p); });
    const auto d = held->dims();
    const auto f = static_cast<py::ssize_t>(sizeof(float));
    const auto pitch = static_cast<py::ssize_t>(held->pitch());
    const auto n0 = static_cast<py::ssize_t>(d[0]), n1 = static_cast<py::ssize_t>(d[1]),
               n2 = static_cast<py::ssize_t>(d[2]);
    if (ndim == 2 && d[0] == 1)
        return py::array(py::dtype::of<float>(), {n1, n2}, {pitch * f, f}, held->data(), owner);
    return py::array(py::dtype::of<float>(), {n0, n1, n2}, {n1 * pitch * f, pitch * f, f},
                     held->data(), owner);
}

py::array copyToNumpy(const Array3<float>& a, int ndim) {
    const auto d = a.dims();
    py::array_t<float> out(
        ndim == 2 && d[0] == 1
            ? std::vector<py::ssize_t>{py::ssize_t(d[1]), py::ssize_t(d[2])}
            : std::vector<py::ssize_t>{py::ssize_t(d[0]), py::ssize_t(d[1]), py::ssize_t(d[2])});
    float* dst = out.mutable_data();
    for (std::size_t i = 0; i < d[0]; ++i)
        for (std::size_t r = 0; r < d[1]; ++r)
            std::memcpy(dst + (i * d[1] + r) * d[2], a.row(i, r).data(), d[2] * sizeof(float));
    return out;
}

}  // namespace tomo::python
