// The mesh statistics and the CalculiX deck as `rebound mesh` prints them.
#include <cmath>
#include <string>

#include "cases/format.h"
#include "meshes/meshes.h"

namespace rebound::meshes {
namespace {

double relative(double value, double exact) {
  return exact != 0 ? (value - exact) / std::abs(exact) : value;
}

}  // namespace

std::string mesh_table(const cases::Case& c, const MeshStatistics& s, const std::string& file) {
  std::string out;
  const auto row = [&out](const char* label, double value, const char* unit) {
    out += cases::format("  %-30s %-14.6g %s\n", label, value, unit);
  };
  const auto compare = [&out](const char* label, double value, double exact, const char* unit) {
    out += cases::format("  %-30s %-14.8g exact %-14.8g (%+.3e) %s\n", label, value, exact,
                         relative(value, exact), unit);
  };
  out += cases::format("%s  (%s)  %s mesh, %d rank%s, %.2f s\n", c.name.c_str(), c.source.c_str(),
                       cases::to_string(c.body.shape), s.ranks, s.ranks == 1 ? "" : "s", s.seconds);
  out += cases::format(" Mesh\n");
  out +=
      cases::format("  %-30s %llu (coarse %llu, global levels %d, --level %d, max level %d)\n",
                    "cells", s.cells, s.coarse_cells, s.global_levels, s.extra_levels, s.max_level);
  out += cases::format("  %-30s %llu\n", "vertices", s.vertices);
  out +=
      cases::format("  %-30s %llu (Q1) / %llu (Q2)\n", "dofs (3 components)", s.dofs_q1, s.dofs_q2);
  out += cases::format(" Mass distribution (MappingQ%u, Gauss)\n", s.mapping_degree);
  compare("volume", s.volume, s.volume_exact, "m^3");
  compare("mass", s.mass, s.mass_exact, "kg");
  out += cases::format("  %-30s (%.6g, %.6g, %.6g) exact (%.6g, %.6g, %.6g) m\n", "centroid G - P",
                       s.centroid[0], s.centroid[1], s.centroid[2], s.centroid_exact[0],
                       s.centroid_exact[1], s.centroid_exact[2]);
  const auto& I = s.inertia_central;
  out +=
      cases::format("  %-30s [[%.5g, %.5g, %.5g], [%.5g, %.5g, %.5g], [%.5g, %.5g, %.5g]] kg m^2\n",
                    "central inertia", I(0, 0), I(0, 1), I(0, 2), I(1, 0), I(1, 1), I(1, 2),
                    I(2, 0), I(2, 1), I(2, 2));
  compare("I_bb (about z)", I(2, 2), s.inertia_exact(2, 2), "kg m^2");
  compare("|PG|", s.contact_offset, s.contact_offset_exact, "m");
  compare("lambda", s.lambda, s.lambda_exact, "");
  out += cases::format("  %-30s %-14.8g exact %-14.8g (%+.3e) rad\n", "theta", s.theta,
                       s.theta_exact, s.theta - s.theta_exact);
  out += cases::format(" Sizes (cell diameters)\n");
  row("h_min", s.h_min, "m");
  row("h_max", s.h_max, "m");
  row("shortest edge", s.edge_min, "m");
  row("a_max (Hertz)", s.a_max, "m");
  out +=
      cases::format("  %-30s %-14.6g target a_max/%g = %.6g m\n", "h_contact (cells within a_max)",
                    s.h_contact, s.contact_resolution, s.h_contact_target);
  row("contact vertex snap", s.contact_vertex_shift, "m");
  out += cases::format(" Quality\n");
  row("min Jacobian ratio", s.min_jacobian_ratio, "(min/max det J in a cell)");
  row("  within 3 a_max of P", s.min_jacobian_ratio_contact, "");
  row("min det J", s.min_jacobian, "");
  out += cases::format(" Explicit dynamics (dt = cfl edge_min / (sqrt 3 p^2 c_p))\n");
  row("P-wave speed c_p", s.wave_speed, "m/s");
  row("Hertz contact duration t_c", s.contact_duration, "s");
  out += cases::format("  %-30s %-14.6g p=2: %.6g s\n", "stable dt estimate p=1",
                       s.stable_time_step_estimate[0], s.stable_time_step_estimate[1]);
  out += cases::format("  %-30s %-14.6g p=2: %.6g\n", "steps per contact p=1",
                       s.steps_for_contact[0], s.steps_for_contact[1]);
  std::string levels;
  for (std::size_t k = 0; k < s.time_step_levels.size(); ++k)
    levels += (k ? " " : "") + std::to_string(s.time_step_levels[k]);
  out += cases::format("  %-30s %s (level k: shortest edge in [2^k, 2^(k+1)) edge_min)\n",
                       "cells by stable step level", levels.c_str());
  out += cases::format(" Output: %s\n", file.c_str());
  return out;
}

std::string inp_table(const InpSummary& s, double volume_exact, const std::string& file) {
  std::string out;
  out += cases::format(" CalculiX deck (%s)\n", s.element_type.c_str());
  out += cases::format("  %-30s %llu\n", "nodes", s.nodes);
  out += cases::format("  %-30s %llu\n", "elements", s.elements);
  out += cases::format("  %-30s %llu (%llu *EQUATION)\n", "hanging nodes", s.hanging_nodes,
                       s.equations);
  out += cases::format("  %-30s %llu faces, %llu nodes (%llu hanging), within %.6g m of P\n",
                       "contact surface SCONTACT", s.contact_faces, s.contact_nodes,
                       s.contact_hanging_nodes, s.contact_surface_radius);
  out += cases::format("  %-30s %-14.8g exact %-14.8g (%+.3e) m^3\n", "volume (written nodes)",
                       s.volume, volume_exact, relative(s.volume, volume_exact));
  out += cases::format("  %-30s %-14.6g\n", "min det J (Gauss points)", s.min_jacobian);
  out += cases::format(" Output: %s\n", file.c_str());
  return out;
}

}  // namespace rebound::meshes
