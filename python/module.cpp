// rebound._rebound: the compiled half of the Python module (docs/PYTHON.md). It binds the
// libraries the command line uses, never re-implementing them: cases::load_case/parse_case (the
// Case and CaseError), lumped::solve + lumped::summary_json + lumped::history_table (what
// `rebound lumped` writes to summary.json and history.csv) and lumped::run_sweep (what `rebound
// sweep` writes to sweep.csv). The solves run with the GIL released, and Ctrl-C stops them
// (KeyboardInterrupt). The pure-Python half
// (python/rebound/*.py) turns sweeps into DataFrames and reads result folders.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/halfspace.h"
#include "lumped/normal_laws.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "lumped/sweep.h"
#include "lumped/zener_plate.h"
#include "observables/history.h"
#include "observables/quantities.h"
#include "observables/units.h"
#include "rebound/version.h"

namespace py = pybind11;
using nlohmann::json;
using namespace rebound;

namespace {

// ---- JSON <-> Python ------------------------------------------------------------------------

// JSON as Python objects, as json.load would give them (null: None; objects: dicts).
py::object to_python(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return py::none();
    case json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case json::value_t::number_integer:
      return py::int_(j.get<std::int64_t>());
    case json::value_t::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case json::value_t::number_float:
      return py::float_(j.get<double>());
    case json::value_t::string:
      return py::str(j.get_ref<const std::string&>());
    case json::value_t::array: {
      py::list list;
      for (const json& item : j) list.append(to_python(item));
      return std::move(list);
    }
    case json::value_t::object: {
      py::dict dict;
      for (auto it = j.begin(); it != j.end(); ++it)
        dict[py::str(it.key())] = to_python(it.value());
      return std::move(dict);
    }
    default:
      return py::none();
  }
}

// A Python value (dict, list/tuple, str, bool, int, float, None, numpy scalars) as JSON. Floats
// stay doubles bit for bit; NaN and infinities pass through so that the case parser rejects them
// naming the key.
json to_json(const py::handle& value, const std::string& where) {
  if (value.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
  if (py::isinstance<py::int_>(value)) return value.cast<std::int64_t>();
  if (py::isinstance<py::float_>(value)) return value.cast<double>();
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::dict>(value)) {
    json object = json::object();
    for (const auto& [key, item] : value.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key))
        throw py::type_error("case keys must be strings; " + where + " has the key " +
                             py::repr(key).cast<std::string>());
      const std::string name = key.cast<std::string>();
      object[name] = to_json(item, where.empty() ? name : where + "." + name);
    }
    return object;
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    json array = json::array();
    for (const auto& item : value) array.push_back(to_json(item, where));
    return array;
  }
  if (py::hasattr(value, "item") && py::hasattr(value, "dtype"))  // numpy scalar
    return to_json(value.attr("item")(), where);
  throw py::type_error("cannot put " + py::repr(value).cast<std::string>() + " (at " +
                       (where.empty() ? std::string("<document>") : where) +
                       ") into a case description");
}

// ---- Case -----------------------------------------------------------------------------------

cases::Case load_case_object(const py::object& what) {
  if (py::isinstance<cases::Case>(what)) return what.cast<cases::Case>();
  if (py::isinstance<py::dict>(what)) return cases::parse_case(to_json(what, ""), "<dict>");
  if (py::isinstance<py::str>(what)) {
    const std::string text = what.cast<std::string>();
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{')
      return cases::parse_case(text, "<string>");
    return cases::load_case(text);
  }
  if (py::hasattr(what, "__fspath__"))
    return cases::load_case(py::module_::import("os").attr("fspath")(what).cast<std::string>());
  throw py::type_error(
      "load_case expects a path (str or os.PathLike), JSON text, a dict or a rebound.Case; got " +
      py::repr(what).cast<std::string>());
}

cases::Case with_changes(const cases::Case& c, const py::dict& changes) {
  json document = c.raw;
  document.merge_patch(to_json(changes, ""));
  return cases::parse_case(document, c.source);
}

std::string case_repr(const cases::Case& c) {
  return "rebound.Case(name='" + c.name + "', source='" + c.source + "', model='" + c.lumped.model +
         "')";
}

// ---- Results --------------------------------------------------------------------------------

py::array_t<double> to_numpy(const std::vector<double>& values) {
  py::array_t<double> array(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), array.mutable_data());
  return array;
}

// History columns in file order, named as history.csv's header (with their units: time_s,
// normal_force_N, ...): numbers as float64 arrays, labels (the mode) as str arrays.
py::dict history_dict(const observables::History& history) {
  const py::object asarray = py::module_::import("numpy").attr("asarray");
  py::dict out;
  for (const std::string& name : history.columns) {
    const py::str key(observables::csv_column(name));
    if (history.values.count(name))
      out[key] = to_numpy(history.values.at(name));
    else if (history.labels.count(name))
      out[key] = asarray(py::cast(history.labels.at(name)), py::str("U"));
  }
  return out;
}

// Runs `work` (C++ only: no Python object may be touched) on a thread of its own, the GIL
// released, while this thread checks Python's signals every 0.1 s: Ctrl-C (KeyboardInterrupt, in
// a terminal or Jupyter's "interrupt") sets the stop flag `work` hands to the solver
// (lumped::SolveControl, run_sweep), waits for it to stop at its next check and raises in Python.
// The work's own exceptions reach Python as they would without the thread.
template <class Work>
auto run_interruptibly(Work work) -> decltype(work(nullptr)) {
  std::atomic<bool> stop{false};
  auto result = std::async(std::launch::async, [&work, &stop] { return work(&stop); });
  for (;;) {
    {
      py::gil_scoped_release release;
      if (result.wait_for(std::chrono::milliseconds(100)) == std::future_status::ready) break;
    }
    if (PyErr_CheckSignals() != 0) {  // a Python signal handler raised (KeyboardInterrupt)
      stop = true;
      {
        py::gil_scoped_release release;
        result.wait();  // its outcome (lumped::Interrupted, or a result just finished) is dropped
      }
      throw py::error_already_set();
    }
  }
  return result.get();
}

py::dict solve_lumped(const py::object& what, bool history) {
  const cases::Case c = load_case_object(what);
  const auto solve = [&c, history](const std::atomic<bool>* stop) {
    lumped::SolveControl control;
    control.stop = stop;
    const cases::Derived d = cases::derive(c);
    const lumped::Outcome outcome = lumped::solve(c, d, history, control);
    return std::make_pair(lumped::summary_json(c, d, outcome),
                          history ? lumped::history_table(lumped::history_rows(c, d, outcome))
                                  : observables::History{});
  };
  // The models that cannot be stopped take milliseconds at most: solved on this thread (a
  // thread of their own would cost ~0.1 ms a call, twice Lai's solve).
  const auto [summary, table] = [&] {
    if (lumped::checks_solve_control(c)) return run_interruptibly(solve);
    py::gil_scoped_release release;
    return solve(nullptr);
  }();
  py::dict out = to_python(summary);
  if (history) out["history"] = history_dict(table);
  return out;
}

constexpr int kMaxThreads = lumped::kMaxSweepThreads;  // as `rebound sweep --threads N`

lumped::SweepVariable sweep_variable(const std::string& name) {
  for (const auto variable : {lumped::SweepVariable::psi1, lumped::SweepVariable::incidence_angle,
                              lumped::SweepVariable::friction, lumped::SweepVariable::sample})
    if (name == lumped::to_string(variable)) return variable;
  throw py::value_error("unknown sweep variable '" + name +
                        "'; expected psi1, incidence_angle, friction or sample");
}

// One model's sweep: the columns of sweep.csv, named as its header (the swept value,
// summary_scalar_keys() with their units, phases, error) as float64 arrays (NaN where sweep.csv
// has an empty cell) and lists of str. threads: 1 to kMaxThreads, or 0 for every core.
py::dict run_sweep(const py::object& what, const std::string& variable_name,
                   const py::array_t<double, py::array::c_style | py::array::forcecast>& given,
                   int threads) {
  const cases::Case base = load_case_object(what);
  const std::vector<double> values(given.data(), given.data() + given.size());
  const lumped::SweepVariable variable = sweep_variable(variable_name);
  if (threads < 0 || threads > kMaxThreads)
    throw py::value_error("threads is " + std::to_string(threads) +
                          "; expected an integer in [1, " + std::to_string(kMaxThreads) +
                          "] (0: every core)");
  if (threads == 0) threads = std::max(1, int(std::thread::hardware_concurrency()));
  // Bad values are bad input (CaseError naming the key), as the command line checks its range's
  // ends before running: every non-finite value, and the smallest and largest (the valid values
  // of each variable are an interval).
  for (const double value : values)
    if (!std::isfinite(value)) lumped::case_at(base, variable, value);
  if (!values.empty()) {
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    lumped::case_at(base, variable, *low);
    lumped::case_at(base, variable, *high);
  }
  const std::vector<lumped::SweepPoint> rows =
      run_interruptibly([&base, variable, &values, threads](const std::atomic<bool>* stop) {
        return lumped::run_sweep(base, variable, values, threads, stop);
      });
  const auto& keys = observables::summary_scalar_keys();
  const auto n = static_cast<py::ssize_t>(rows.size());
  py::dict out;
  py::array_t<double> swept(n);
  std::vector<py::array_t<double>> columns;
  for (std::size_t k = 0; k < keys.size(); ++k) columns.emplace_back(n);
  py::list phases(n), errors(n);
  for (py::ssize_t i = 0; i < n; ++i) {
    const lumped::SweepPoint& row = rows[static_cast<std::size_t>(i)];
    swept.mutable_data()[i] = row.value;
    for (std::size_t k = 0; k < keys.size(); ++k)
      columns[k].mutable_data()[i] = k < row.scalars.size() && std::isfinite(row.scalars[k])
                                         ? row.scalars[k]
                                         : std::numeric_limits<double>::quiet_NaN();
    phases[static_cast<std::size_t>(i)] = py::str(row.phases);
    errors[static_cast<std::size_t>(i)] = py::str(row.error);
  }
  out[py::str(observables::csv_column(std::string("sweep_") + lumped::to_string(variable)))] =
      swept;
  for (std::size_t k = 0; k < keys.size(); ++k)
    out[py::str(observables::csv_column(keys[k]))] = columns[k];
  out["phases"] = phases;
  out["error"] = errors;
  // The restitution of each point's impact when the case's lumped.restitution is a table, as
  // sweep.csv's last columns (NaN for a point without one).
  if (std::any_of(rows.begin(), rows.end(), [](const auto& row) { return row.draw.has_value(); })) {
    using Draw = lumped::RestitutionDraw;
    for (const auto& [key, field] :
         {std::pair{"energy_flux_density", &Draw::flux_density},
          std::pair{"restitution_mean", &Draw::mean}, std::pair{"restitution_std", &Draw::sigma},
          std::pair{"restitution", &Draw::value}}) {
      py::array_t<double> column(n);
      for (py::ssize_t i = 0; i < n; ++i) {
        const auto& draw = rows[static_cast<std::size_t>(i)].draw;
        column.mutable_data()[i] = draw ? (*draw).*field : std::numeric_limits<double>::quiet_NaN();
      }
      out[py::str(observables::csv_column(key))] = column;
    }
  }
  // A free target sphere's velocity and spin after each impact, as sweep.csv's last columns.
  if (base.target.moves())
    for (std::size_t k = 0; k < lumped::kFreeTargetColumns.size(); ++k) {
      py::array_t<double> column(n);
      for (py::ssize_t i = 0; i < n; ++i) {
        const auto& target = rows[static_cast<std::size_t>(i)].free_target;
        column.mutable_data()[i] = target ? (*target)[k] : std::numeric_limits<double>::quiet_NaN();
      }
      out[py::str(observables::csv_column(lumped::kFreeTargetColumns[k]))] = column;
    }
  return out;
}

// The values of `rebound sweep`'s START:STOP:COUNT, computed as the command line computes them.
py::array_t<double> sweep_values(double start, double stop, int count) {
  if (count < 1) throw py::value_error("COUNT must be >= 1, got " + std::to_string(count));
  lumped::SweepRange range;
  range.start = start;
  range.stop = stop;
  range.count = count;
  std::vector<double> values(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) values[static_cast<std::size_t>(i)] = range.value(i);
  return to_numpy(values);
}

// ---- Static laws ------------------------------------------------------------------------------

std::vector<double> approaches_of(
    const py::array_t<double, py::array::c_style | py::array::forcecast>& given) {
  if (given.ndim() > 1) throw py::value_error("approaches must be a number or a 1-D array");
  return std::vector<double>(given.data(), given.data() + given.size());
}

// F(delta) of the case's lumped.normal_law (its elastic part), N.
py::array_t<double> normal_law(
    const py::object& what,
    const py::array_t<double, py::array::c_style | py::array::forcecast>& given) {
  const cases::Case c = load_case_object(what);
  const std::vector<double> approaches = approaches_of(given);
  std::vector<double> forces;
  {
    py::gil_scoped_release release;
    forces = lumped::elastic_normal_forces(c, approaches);
  }
  return to_numpy(forces);
}

// The half-space model's static contact at each approach: columns named with their units.
py::dict halfspace_static(
    const py::object& what,
    const py::array_t<double, py::array::c_style | py::array::forcecast>& given, int cells,
    double domain) {
  const cases::Case c = load_case_object(what);
  cases::require_lumped_target(c);  // a plate is not a half-space (CaseError)
  const std::vector<double> approaches = approaches_of(given);
  lumped::HalfspaceStaticOptions options;
  options.cells = cells;
  options.domain = domain;
  std::vector<lumped::HalfspaceStaticContact> rows =
      run_interruptibly([&c, &approaches, &options](const std::atomic<bool>* stop) {
        lumped::HalfspaceStaticOptions o = options;
        o.contact.stop = stop;
        std::vector<lumped::HalfspaceStaticContact> out;
        for (const double approach : approaches) {
          try {
            out.push_back(lumped::halfspace_static_contact(c, approach, o));
          } catch (const halfspace::Contact::Stopped&) {
            throw lumped::Interrupted(0.0);
          }
        }
        return out;
      });
  py::dict out;
  const auto column = [&rows](auto field) {
    std::vector<double> values;
    for (const auto& row : rows) values.push_back(double(row.*field));
    return to_numpy(values);
  };
  using Row = lumped::HalfspaceStaticContact;
  out["approach_m"] = column(&Row::approach);
  out["normal_force_N"] = column(&Row::force);
  out["contact_radius_m"] = column(&Row::contact_radius);
  out["max_pressure_Pa"] = column(&Row::max_pressure);
  out["edge_pressure_Pa"] = column(&Row::edge_pressure);
  out["grid_cells"] = column(&Row::grid_cells);
  out["cell_size_m"] = column(&Row::cell_size);
  out["grid_half_width_m"] = column(&Row::grid_half_width);
  out["iterations"] = column(&Row::iterations);
  return out;
}

}  // namespace

PYBIND11_MODULE(_rebound, m) {
  m.doc() = "rebound's compiled core; use the `rebound` package (docs/PYTHON.md).";
  m.attr("__version__") = REBOUND_VERSION;
  m.attr("MAX_THREADS") = kMaxThreads;

  // rebound.CaseError(ValueError) with .file and .key. The type is created once and kept for the
  // life of the process (no static py::object whose destructor would run after finalisation).
  static PyObject* const case_error = PyErr_NewExceptionWithDoc(
      "rebound.CaseError",
      "A rejected case description: str(error) names the file, the key path, the bad value and "
      "what was expected; .file and .key hold the first two.",
      PyExc_ValueError, nullptr);
  if (case_error == nullptr) throw py::error_already_set();
  m.add_object("CaseError", py::handle(case_error));
  // rebound.SolveError(RuntimeError): a lumped solve that failed (the integrator gave up, or the
  // result is not physical): what `rebound lumped` reports with exit status 1.
  static PyObject* const solve_error = PyErr_NewExceptionWithDoc(
      "rebound.SolveError",
      "A lumped solve that failed: the integrator gave up or the result is not physical. "
      "str(error) names the case file, the cause and the inputs that decided the solve (model, "
      "lambda, theta, friction, incidence), with a hint when lambda is close to 1.",
      PyExc_RuntimeError, nullptr);
  if (solve_error == nullptr) throw py::error_already_set();
  m.add_object("SolveError", py::handle(solve_error));
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const cases::CaseError& error) {
      const py::object type = py::reinterpret_borrow<py::object>(case_error);
      const py::object instance = type(error.what());
      instance.attr("file") = error.file();
      instance.attr("key") = error.key();
      PyErr_SetObject(case_error, instance.ptr());
    } catch (const lumped::SolveError& error) {
      PyErr_SetString(solve_error, error.what());
    }
  });

  py::class_<cases::Body>(m, "Body", "body section of a case (SI)")
      .def_property_readonly("shape", [](const cases::Body& b) { return to_string(b.shape); })
      .def_readonly("radius", &cases::Body::radius)
      .def_readonly("length", &cases::Body::length)
      .def_readonly("thickness", &cases::Body::thickness)
      .def_readonly("mass", &cases::Body::mass)
      .def_readonly("radius_of_gyration", &cases::Body::radius_of_gyration)
      .def_readonly("contact_offset", &cases::Body::contact_offset);
  py::class_<cases::Target>(m, "Target", "target section of a case (SI)")
      .def_property_readonly("type", [](const cases::Target& t) { return to_string(t.type); })
      .def_readonly("young_modulus", &cases::Target::young_modulus,
                    "elastic_halfspace, sphere, elastic_plate and an elastic spherical_socket, Pa "
                    "(0: a rigid socket)")
      .def_readonly("poisson_ratio", &cases::Target::poisson_ratio,
                    "elastic_halfspace, sphere, elastic_plate and an elastic spherical_socket")
      .def_readonly(
          "density", &cases::Target::density,
          "sphere, elastic_plate, an elastic socket: kg/m^3; elastic_halfspace: optional (None)")
      .def_readonly("radius", &cases::Target::radius,
                    "spherical_socket: the socket's R1, m; sphere: the target sphere's R2, m")
      .def_readonly("outer_radius", &cases::Target::outer_radius,
                    "an elastic spherical_socket: its outer radius R_o, m (0: rigid)")
      .def_readonly("thickness", &cases::Target::thickness, "elastic_plate: its h, m")
      .def_readonly("half_width", &cases::Target::half_width, "elastic_plate: its L, m")
      .def_property_readonly(
          "edge", [](const cases::Target& t) { return to_string(t.edge); },
          "elastic_plate: \"free\" or \"clamped\"");
  py::class_<cases::Material>(m, "Material", "material section of a case (SI)")
      .def_readonly("young_modulus", &cases::Material::young_modulus)
      .def_readonly("poisson_ratio", &cases::Material::poisson_ratio)
      .def_readonly("density", &cases::Material::density)
      .def_readonly("yield_stress", &cases::Material::yield_stress,
                    "Pa, optional (None); normal_law thornton and model elastic-plastic need it")
      .def_readonly("relaxation_strength", &cases::Material::relaxation_strength,
                    "g, model viscoelastic only (None otherwise): glassy modulus (1 + g) E")
      .def_readonly("relaxation_time", &cases::Material::relaxation_time,
                    "tau, s, model viscoelastic only (None otherwise)")
      .def_property_readonly(
          "model",
          [](const cases::Material& material) {
            return std::string(cases::to_string(material.model));
          },
          "the FE body's material: \"elastic\", \"elastic-plastic\" or \"viscoelastic\"");
  py::class_<cases::Contact>(m, "Contact", "contact section of a case")
      .def_readonly("friction", &cases::Contact::friction);
  py::class_<cases::Impact>(m, "Impact",
                            "velocity of P at first touch, whichever form the case used (SI)")
      .def_readonly("theta", &cases::Impact::theta)
      .def_readonly("normal_speed", &cases::Impact::normal_speed)
      .def_readonly("tangential_speed", &cases::Impact::tangential_speed)
      .def_readonly("spin", &cases::Impact::spin)
      .def_readonly("velocity_form", &cases::Impact::velocity_form);
  py::class_<cases::LumpedOptions>(m, "LumpedOptions", "lumped section of a case")
      .def_readonly("model", &cases::LumpedOptions::model)
      .def_readonly("normal_law", &cases::LumpedOptions::normal_law)
      .def_readonly("polynomial_index", &cases::LumpedOptions::polynomial_index)
      .def_readonly("dissipative_constant", &cases::LumpedOptions::dissipative_constant,
                    "s, normal_law viscoelastic's A; None when absent")
      .def_readonly("lambda_override", &cases::LumpedOptions::lambda)
      .def_readonly("theta_override", &cases::LumpedOptions::theta)
      .def_readonly("restitution", &cases::LumpedOptions::restitution,
                    "a number; None when absent or a table (restitution_table)")
      .def_property_readonly(
          "restitution_table",
          [](const cases::LumpedOptions& o) -> py::object {
            if (!o.restitution_table) return py::none();
            py::dict table;
            table["flux_density"] = o.restitution_table->flux_density;
            table["mean"] = o.restitution_table->mean;
            if (!o.restitution_table->sigma.empty()) table["std"] = o.restitution_table->sigma;
            return std::move(table);
          },
          "lumped.restitution as a table in the energy-flux density (Michalczyk 2008), or None")
      .def_readonly("seed", &cases::LumpedOptions::seed)
      .def_readonly("restitution_calibration", &cases::LumpedOptions::restitution_calibration)
      .def_readonly("impulse_ratio", &cases::LumpedOptions::impulse_ratio)
      .def_readonly("relative_tolerance", &cases::LumpedOptions::relative_tolerance)
      .def_readonly("springs", &cases::LumpedOptions::springs)
      .def_readonly("cells", &cases::LumpedOptions::cells)
      .def_readonly("time_steps", &cases::LumpedOptions::time_steps)
      .def_readonly("dundurs_coupling", &cases::LumpedOptions::dundurs_coupling);

  py::class_<cases::Case>(m, "Case",
                          "A validated case description (read-only; see with_changes). "
                          "Made by rebound.load_case.")
      .def_readonly("name", &cases::Case::name)
      .def_readonly("description", &cases::Case::description)
      .def_readonly("source", &cases::Case::source, "file it was read from, or <dict>/<string>")
      .def_readonly("target", &cases::Case::target)
      .def_readonly("body", &cases::Case::body)
      .def_readonly("material", &cases::Case::material)
      .def_readonly("contact", &cases::Case::contact)
      .def_readonly("impact", &cases::Case::impact)
      .def_readonly("lumped", &cases::Case::lumped)
      .def(
          "to_dict", [](const cases::Case& c) { return to_python(c.raw); },
          "The case description as read (the JSON document as a dict).")
      .def("with_changes", &with_changes, py::arg("changes"),
           "A new Case: `changes` merged into to_dict() (JSON merge patch: nested dicts merge, "
           "None deletes a key) and validated again; raises CaseError naming the key.")
      .def(
          "derived", [](const cases::Case& c) { return to_python(cases::to_json(c, derive(c))); },
          "What `rebound check --json` prints for the case: mass properties, m, lambda, theta, "
          "alpha, Psi1, Hertz scales ... (SI; keys in cases/README.md).")
      .def("__repr__", &case_repr);

  m.def("load_case", &load_case_object, py::arg("source"),
        "A Case from a path, JSON text, a dict or a Case; raises CaseError.");
  m.def("lumped", &solve_lumped, py::arg("case"), py::arg("history") = true,
        "summary.json of `rebound lumped` as a dict, plus 'history': history.csv's columns.");
  m.def("normal_law", &normal_law, py::arg("case"), py::arg("approaches"),
        "F(delta), N: the elastic part of the case's lumped.normal_law at each rigid approach "
        "(m); ValueError for an approach < 0, not finite or beyond the body.");
  m.def("halfspace_static", &halfspace_static, py::arg("case"), py::arg("approaches"),
        py::arg("cells") = 40, py::arg("domain") = 1.25,
        "The half-space model's frictionless static contact at each rigid approach (use "
        "rebound.halfspace_static); RuntimeError when the contact reaches the grid's edge.");
  m.def(
      "zener_plate",
      [](const py::object& what) {
        const cases::Case c = load_case_object(what);
        if (c.target.type != cases::TargetType::elastic_plate)
          throw py::value_error(c.source + ": target.type is \"" + to_string(c.target.type) +
                                "\"; Zener's model needs \"elastic_plate\"");
        const lumped::ZenerPlateImpact z =
            lumped::zener_plate_impact(lumped::zener_inelasticity(c));
        const cases::HertzScales h = derive(c).hertz;
        const double force =
            4.0 / 3.0 * h.contact_modulus * std::sqrt(h.radius) * std::pow(h.max_compression, 1.5);
        py::dict out;
        out["inelasticity"] = z.inelasticity;
        out["restitution"] = z.restitution;
        out["contact_duration"] = z.duration * h.max_compression / h.normal_speed;
        out["peak_force"] = z.peak_force * force;
        out["plate_energy"] = z.plate_energy;
        return out;
      },
      py::arg("case"),
      "Zener's (1941) normal impact of the case's sphere on its elastic plate, the plate infinite "
      "(lumped/zener_plate.h): inelasticity (Lambda, proportional to his parameter), restitution "
      "e, "
      "contact_duration (s), peak_force (N), plate_energy (the share of the impact energy the "
      "plate carries away); ValueError for another target.");
  m.def(
      "case_with_model",
      [](const py::object& what, const std::string& model) {
        return lumped::case_with_model(load_case_object(what), model);
      },
      py::arg("case"), py::arg("model"),
      "The case with its lumped model set to `model` (a lumped.model or halfspace-beta0, as "
      "`rebound sweep --models`), validated again; ValueError for an unknown name.");
  m.def(
      "sweep_model_name",
      [](const py::object& what) { return lumped::model_name(load_case_object(what)); },
      py::arg("case"),
      "The case's own model as `rebound sweep --models` names it (lumped.model, or "
      "halfspace-beta0 for the half-space model without the Dundurs coupling).");
  m.def("sweep", &run_sweep, py::arg("case"), py::arg("variable"), py::arg("values"),
        py::arg("threads") = 0,
        "One model's sweep: sweep.csv's columns (use rebound.sweep); threads 1 to MAX_THREADS, "
        "or 0 for every core.");
  m.def(
      "units",
      [] {
        py::dict out;
        for (const auto& [name, unit] : observables::unit_table()) out[py::str(name)] = unit;
        return out;
      },
      "The unit of every output quantity and column: '1' dimensionless, '' text.");
  m.def(
      "csv_column",
      [](const std::string& name) {
        if (!observables::has_unit(name))
          throw py::key_error("'" + name +
                              "' is not an output quantity of rebound (rebound.UNITS lists them)");
        return observables::csv_column(name);
      },
      py::arg("name"),
      "The CSV column (and result key) of a quantity: its name with its unit, e.g. "
      "normal_force -> normal_force_N.");
  m.def(
      "sweep_values", &sweep_values, py::arg("start"), py::arg("stop"), py::arg("count"),
      "The values of `rebound sweep --psi1 START:STOP:COUNT`, as the command line computes them.");
}
