#include "cases/template.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "cases/derived.h"
#include "cases/format.h"

namespace rebound::cases {
namespace {

std::string quoted(const std::string& text) {
  return "\"" + text + "\"";
}

std::string degrees_text(double radians) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", radians * 180 / M_PI);
  return text;
}

// One member of an object: a key with its value, a member shown commented out (an option that
// does not apply, with its default), or a comment line.
class Object;
struct Item {
  enum Kind { member, commented, note } kind;
  std::string key, value, comment;
  std::shared_ptr<const Object> child;  // a member whose value is an object
};

class Object {
 public:
  Object& add(const std::string& key, const std::string& value, const std::string& comment) {
    items_.push_back({Item::member, key, value, comment, nullptr});
    return *this;
  }
  // Shown commented out; placed before the object's last member, so that uncommenting the line
  // gives valid JSON.
  Object& off(const std::string& key, const std::string& value, const std::string& comment) {
    items_.push_back({Item::commented, key, value, comment, nullptr});
    return *this;
  }
  Object& note(const std::string& text) {
    items_.push_back({Item::note, "", "", text, nullptr});
    return *this;
  }
  Object& add(const std::string& key, const Object& child, const std::string& comment) {
    items_.push_back({Item::member, key, "", comment, std::make_shared<Object>(child)});
    return *this;
  }
  std::string render(const std::string& indent) const {
    std::string out;
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const Item& item = items_[i];
      if (item.kind == Item::note) {
        out += indent + "// " + item.comment + "\n";
        continue;
      }
      bool later_member = false;
      for (std::size_t j = i + 1; j < items_.size(); ++j)
        later_member = later_member || items_[j].kind == Item::member;
      const std::string comma = later_member ? "," : "";
      if (item.child) {
        out += indent + quoted(item.key) + ": {" +
               (item.comment.empty() ? "" : "  // " + item.comment) + "\n";
        out += item.child->render(indent + "  ");
        out += indent + "}" + comma + "\n";
        continue;
      }
      std::string text = (item.kind == Item::commented ? "// " : "") + quoted(item.key) + ": " +
                         item.value + comma;
      if (!item.comment.empty()) {
        if (text.size() < 30) text.resize(30, ' ');
        text += "  // " + item.comment;
      }
      out += indent + text + "\n";
    }
    return out;
  }

 private:
  std::vector<Item> items_;
};

struct Example {
  Object body;
  double young_modulus, poisson_ratio, density, friction;
  double yield_stress = 2.5e8;  // Pa, an example value for the commented-out key
  std::string material_name;
  std::optional<double> theta;  // rad, shown in degrees
  std::string theta_comment;    // why theta is or is not given
  double speed, incidence_deg;
  bool fem;
};

Example example(Shape shape) {
  Example e;
  e.fem = false;
  e.speed = 0.5;
  e.incidence_deg = 30;
  const auto aluminium = [&e] {
    e.young_modulus = 7e10, e.poisson_ratio = 0.3, e.density = 2700, e.friction = 0.1;
    e.material_name = "aluminium";
  };
  const auto steel = [&e] {
    e.young_modulus = 2e11, e.poisson_ratio = 0.28, e.density = 7800, e.friction = 0.3;
    e.material_name = "steel";
  };
  const std::string radius_comment = "m, > 0 (or \"diameter\", m: one of the two)";
  e.body.add("shape", quoted(to_string(shape)), "sphere | capsule | disc | shell | hoop | custom");
  switch (shape) {
    case Shape::sphere:
      aluminium();
      e.fem = true;
      e.body.add("radius", "0.05", radius_comment);
      e.theta_comment = "theta is 0 for a sphere (its centre is on the normal through P)";
      break;
    case Shape::capsule: {
      steel();
      e.fem = true;
      e.speed = 1.0;
      e.incidence_deg = 45;
      e.body.add("radius", "0.01",
                 "m, > 0, of the cylinder and the hemispherical caps " +
                     std::string("(or \"diameter\", m)"));
      e.body.add("length", "0.05", "m, > 0, cylinder length between the cap centres");
      e.theta = 15 * M_PI / 180;
      const double cap = capsule_theta_limit(0.01, 0.05);
      const double mesh = capsule_theta_for_axis_angle(0.01, 0.05, kMeshMaxAxisAngle);
      e.theta_comment =
          "degrees, angle between PG and n (or \"theta\", rad); for this radius "
          "and length |theta| < " +
          degrees_text(cap) + " (contact on the cap) and < " + degrees_text(mesh) + " (FEM mesh)";
      break;
    }
    case Shape::disc:
      steel();
      e.body.add("radius", "0.05", "m, > 0, struck on its rim (or \"diameter\", m)");
      e.body.add("thickness", "0.01", "m, > 0, axial thickness");
      e.theta_comment = "theta is 0 for a disc struck on its rim";
      break;
    case Shape::shell:
      aluminium();
      e.body.add("radius", "0.05", "m, > 0, outer radius (or \"diameter\", m)");
      e.body.add("thickness", "0.005", "m, wall thickness, in (0, radius)");
      e.theta_comment = "theta is 0 for a spherical shell";
      break;
    case Shape::hoop:
      aluminium();
      e.body.add("radius", "0.05", "m, > 0, outer radius of the ring (or \"diameter\", m)");
      e.body.add("thickness", "0.005", "m, wire diameter, in (0, radius]");
      e.theta_comment = "theta is 0 for a hoop struck on its rim";
      break;
    case Shape::custom:
      steel();
      e.body.add("radius", "0.02", "m, > 0, radius of curvature of the surface at P (Hertz R)");
      e.body.add("mass", "0.5", "kg, > 0");
      e.body.add("radius_of_gyration", "0.02", "m, > 0, central, about b");
      e.body.add("contact_offset", "0.03", "m, >= 0, |PG| (0: theta is 0 and may be left out)");
      e.theta = 20 * M_PI / 180;
      e.theta_comment = "degrees, angle between PG and n, |theta| < 90 (or \"theta\", rad)";
      break;
  }
  return e;
}

}  // namespace

std::optional<Shape> shape_from_string(const std::string& name) {
  for (Shape shape :
       {Shape::sphere, Shape::capsule, Shape::disc, Shape::shell, Shape::hoop, Shape::custom})
    if (name == to_string(shape)) return shape;
  return std::nullopt;
}

std::string case_template(Shape shape, const std::string& name) {
  Example e = example(shape);
  const LumpedOptions lumped;
  const FemOptions fem;

  Object material;
  material.add("young_modulus", format_shortest(e.young_modulus), "Pa, E > 0")
      .add("poisson_ratio", format_shortest(e.poisson_ratio), "nu, in (-1, 0.5)")
      .off("yield_stress", format_shortest(e.yield_stress),
           "Pa, optional: warns when Hertz's peak pressure passes the onset of yield, 1.6 Y; "
           "required by normal_law \"thornton\" (its limiting contact pressure p_y = 1.6 Y)")
      .add("density", format_shortest(e.density), "kg/m^3, > 0");

  Object impact;
  if (e.theta)
    impact.add("theta_deg", format_shortest(std::round(*e.theta * 180 / M_PI)), e.theta_comment);
  else
    impact.note(e.theta_comment + "; \"theta\" may be left out");
  impact.note("Velocity of the contact point P at first touch, in one of three forms:")
      .note("  \"speed\" (m/s) and \"incidence_angle_deg\" (degrees) or \"incidence_angle\" (rad),")
      .note("  \"normal_speed\" and \"tangential_speed\" (m/s, v_n = -normal_speed),")
      .note("  \"normal_speed\" (m/s) and \"psi1\" (Maw's Psi1 = 2(1-nu)/(mu(2-nu)) tan(alpha);")
      .note("  needs friction > 0).")
      .add("speed", format_shortest(e.speed), "m/s, > 0, |v_P|")
      .add("incidence_angle_deg", format_shortest(e.incidence_deg),
           "degrees, in [0, 90): tan(alpha) = v_t / |v_n|")
      .add("spin", "0", "rad/s, about b = t x n (default 0)");

  Object options;
  options
      .add("model", quoted(lumped.model),
           "lai | uncoupled | uncoupled-euler | mdr | halfspace | newton | poisson | stronge | "
           "smith | brach")
      .add("normal_law", quoted(lumped.normal_law),
           "hertz | hunt-crossley | lankarani-nikravesh | flores | michalczyk | thornton (with "
           "material.yield_stress) | viscoelastic (with \"dissipative_constant\") (a plane); "
           "liu | wang-gao (a spherical socket, with \"polynomial_index\", default 2)")
      .off("lambda", "0.5", "overrides the geometry's lambda, in [0, 1)")
      .off("theta_deg", "0",
           "overrides the geometry's theta for the lumped model, degrees (or \"theta\", rad)")
      .off("restitution", "0.8",
           "in (0, 1]; needed by newton, poisson, stronge, smith, brach and the dissipative "
           "normal laws but thornton and viscoelastic (which refuse it); or a table in the "
           "energy-flux density Phi (J/m^3), {\"flux_density\": "
           "[...], \"mean\": [...], \"std\": [...]} (std optional: R random, cut to [0, 1])")
      .off("seed", "0", "a restitution table with std: the seed of its draws")
      .off("dissipative_constant", "1e-06",
           "s, >= 0: normal_law \"viscoelastic\" only, and required by it: A of F = (4/3) E* "
           "sqrt(R) [delta^{3/2} + (3/2) A delta^{1/2} delta']")
      .off("restitution_calibration", quoted(lumped.restitution_calibration),
           "lai with a dissipative normal_law: exact (damping calibrated so that a "
           "frictionless normal impact achieves e; e >= 0.001 for the viscous laws) | "
           "published (the law's closed form)")
      .off("impulse_ratio", "0.2", "brach only: tangential/normal impulse, >= 0")
      .off("springs", std::to_string(lumped.springs),
           "model \"mdr\" only: springs across the largest contact half-width, [8, 100000]")
      .off("cells", std::to_string(lumped.cells),
           "model \"halfspace\" only: cells across the largest Hertz contact diameter, [4, 256]")
      .off("time_steps", std::to_string(lumped.time_steps),
           "model \"halfspace\" only: time steps per Hertz duration, [10, 100000]")
      .off("dundurs_coupling", lumped.dundurs_coupling ? "true" : "false",
           "model \"halfspace\" only: normal-tangential coupling (false: beta = 0)")
      .add("relative_tolerance", format_shortest(lumped.relative_tolerance),
           "integrator tolerance, in [1e-13, 1e-2]")
      .add("euler_step", format_shortest(lumped.euler_step),
           "non-dimensional step of uncoupled-euler, in (0, 0.1]")
      .add("frames", std::to_string(lumped.frames),
           "ParaView frames written by `rebound lumped`, in [1, 10000]");

  Object fem_options;
  fem_options.add("degree", std::to_string(fem.degree), "FE_Q degree, 1 | 2")
      .add("refinement", std::to_string(fem.refinement),
           "global refinements of the coarse mesh, in [0, 8]")
      .add("contact_resolution", format_shortest(fem.contact_resolution),
           "cells within a_max of P have a diameter <= a_max / this, in [1, 64]")
      .add("cfl", format_shortest(fem.cfl),
           "factor on the estimated stable time step, in (0, " + format_shortest(kMaxCfl) + "]")
      .off("end_time", "0.001",
           "s, > 0; default: until the contact has ended and 0.2 Hertz durations have passed")
      .off("block_size", "0.05",
           "m, > 0: target.type \"elastic_halfspace\" only, the half-width and depth of the "
           "block the FEM meshes for it; default: no reflection returns within 1.2 Hertz "
           "durations")
      .add("frames", std::to_string(fem.frames), "ParaView frames of the FEM run, in [1, 100000]");

  Object top;
  top.add("name", quoted(name),
          "names the output folder results/<name>/: [a-z0-9._-], at most " +
              std::to_string(kMaxNameLength) + " characters")
      .add("description",
           quoted("An example " + std::string(to_string(shape)) + " of " + e.material_name),
           "free text")
      .add("body", e.body, "")
      .add("material", material, e.material_name)
      .add("target",
           Object().add("type", quoted("rigid_plane"),
                        "default; or \"elastic_halfspace\" with \"material\": "
                        "{young_modulus, poisson_ratio[, density]} (the FEM needs the "
                        "density), or \"spherical_socket\" with \"radius\" R1 > the "
                        "sphere's (rigid; elastic with \"outer_radius\" R_o > R1 and that "
                        "material with its density), or \"sphere\" (a free sphere at rest) with "
                        "\"radius\" R2 "
                        "and \"material\": {young_modulus, poisson_ratio, density}, or "
                        "\"elastic_plate\" with \"thickness\", \"half_width\", \"edge\" "
                        "(\"free\" or \"clamped\") and that material (the FEM's only); the FEM "
                        "strikes the half-space, the sphere, the plate and an elastic socket with "
                        "an elastic sphere only"),
           "")
      .add("contact", Object().add("friction", format_shortest(e.friction), "Coulomb mu, >= 0"),
           "");
  top.add("impact", impact, "").add("lumped", options, "lumped models (`rebound lumped`)");
  if (e.fem)
    top.add("fem", fem_options, "the FEM (`rebound fem`, `rebound pair`)");
  else
    top.note(std::string("no \"fem\" section: the FEM meshes spheres and capsules only, not a ") +
             to_string(shape));
  return "// rebound case file, written by `rebound init --shape " + std::string(to_string(shape)) +
         "`:\n// JSON with // comments, SI units. Every key is shown with its default; keys that "
         "do not\n// apply are commented out. Reference: cases/README.md. Check it with "
         "`rebound check FILE`.\n{\n" +
         top.render("  ") + "}\n";
}

}  // namespace rebound::cases
