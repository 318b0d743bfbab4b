// halide_arena._planning: the planner pass for pipelines and generators
// written in Python. It shares pybind11's internals with the `halide` module
// (the same pybind11 ABI, python/CMakeLists.txt checks it), so its functions
// take halide.Pipeline, halide.ImageParam and halide.Target objects as they
// are, and it links the libHalide that `halide` loads.
#include "generator_entry.h"
#include "jit_planner.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

namespace harena::python {
namespace {

GivenSize given_size(const std::string &name, const py::handle &value) {
    GivenSize size;
    if (py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)) {
        size.scalar = true;
        size.value = value.cast<double>();
        return size;
    }
    if (py::isinstance<py::sequence>(value) && !py::isinstance<py::str>(value)) {
        size.extents = value.cast<std::vector<int64_t>>();
        return size;
    }
    throw py::type_error("halide_arena: bytes_for: the size of '" + name +
                         "' is a number (a scalar input) or a sequence of extents (a buffer), not " +
                         std::string(py::str(py::type::of(value))));
}

std::unique_ptr<JitPlanner> make_planner(const Halide::Pipeline &pipeline, const Parameter &arena,
                                         const Halide::Target &target, const std::string &pipeline_name,
                                         const std::string &report_dir, int trace, int parallel_slots,
                                         int64_t nominal_extent) {
    PassOptions options;
    options.pipeline_name = pipeline_name;
    options.report_dir = report_dir;
    options.trace = trace;
    options.parallel_slots = parallel_slots;
    options.nominal_extent = nominal_extent;
    return std::make_unique<JitPlanner>(pipeline, arena, target, options);
}

void define_planner(py::module_ &m) {
    py::class_<JitPlanner>(m, "JitPlanner")
        .def(py::init(&make_planner), py::arg("pipeline"), py::arg("arena"), py::arg("target"),
             py::arg("pipeline_name") = "", py::arg("report_dir") = "", py::arg("trace") = 0,
             py::arg("parallel_slots") = 16, py::arg("nominal_extent") = 1024)
        .def_property_readonly("pipeline", &JitPlanner::pipeline)
        .def_property_readonly("bytes_at_estimates",
                               [](const JitPlanner &p) { return p.at_estimates().bytes_at_estimates; })
        .def_property_readonly("buffers", [](const JitPlanner &p) { return p.at_estimates().buffers; })
        .def_property_readonly("buffers_planned",
                               [](const JitPlanner &p) { return p.at_estimates().buffers_planned; })
        .def_property_readonly("slot_pools", [](const JitPlanner &p) { return p.at_estimates().slot_pools; })
        .def_property_readonly("unplanned", [](const JitPlanner &p) { return p.at_estimates().unplanned; })
        .def_property_readonly("bounded", [](const JitPlanner &p) { return p.at_estimates().bounded; })
        .def(
            "bytes_for",
            [](JitPlanner &p, const py::dict &sizes) {
                std::map<std::string, GivenSize> given;
                for (const auto &[key, value] : sizes) {
                    const std::string name = py::str(key);
                    given.emplace(name, given_size(name, value));
                }
                return p.bytes_for(given);
            },
            py::arg("sizes"));
}

}  // namespace
}  // namespace harena::python

PYBIND11_MODULE(_planning, m) {
    m.doc() = "halide-arena's planner pass for pipelines and generators written in Python";
    harena::python::define_planner(m);
    m.def("generator_main", &harena::python::generator_main, py::arg("argv"),
          "halide-arena's generator main over the Python generators registered with @halide.generator; "
          "returns its exit code");
}
