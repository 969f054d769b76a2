// The static laws F(delta) in SI (lumped::elastic_normal_forces, what rebound.normal_law
// returns): the socket's laws are cases::socket_force with the case's E*, geometry and n; on a
// plane every law's elastic part is Hertz's (4/3) E* sqrt(R) delta^{3/2}; approaches that are
// negative, not finite or beyond the ball raise.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "cases/socket.h"
#include "lumped/normal_laws.h"

namespace rebound::lumped {
namespace {

cases::Case with_law(const char* file, const char* law, int n = 2) {
  cases::Case c = cases::load_case(std::string(REBOUND_SOURCE_DIR "/cases/") + file);
  nlohmann::json document = c.raw;
  const std::string name = law;
  document["lumped"] = {{"model", "lai"}, {"normal_law", law}};
  if (name == "liu" || name == "wang-gao") document["lumped"]["polynomial_index"] = n;
  if (name != "hertz" && name != "liu" && name != "wang-gao")
    document["lumped"]["restitution"] = 0.9;
  return cases::parse_case(document, c.source);
}

// In SI: E* = E/(1 - nu^2) of the ball (the socket is rigid), R_eff = R1 R2 / dR.
TEST(StaticLaws, SocketLawsAreTheirFormulas) {
  const std::vector<double> approaches = {0.0, 1e-7, 1e-6, 1e-5, 1e-4};
  for (const char* law : {"hertz", "liu", "wang-gao", "hunt-crossley", "flores"}) {
    for (int n : {1, 2, 8}) {
      const cases::Case c = with_law("socket-wang-gao-0.5mm.json", law, n);
      const double E = 2.068e11 / (1 - 0.29 * 0.29);
      const cases::SocketGeometry g = cases::socket_geometry(c);
      const cases::SocketLaw of = std::string(law) == "liu"        ? cases::SocketLaw::liu
                                  : std::string(law) == "wang-gao" ? cases::SocketLaw::wang_gao
                                                                   : cases::SocketLaw::hertz;
      const std::vector<double> forces = elastic_normal_forces(c, approaches);
      ASSERT_EQ(forces.size(), approaches.size());
      for (std::size_t i = 0; i < approaches.size(); ++i)
        EXPECT_NEAR(forces[i], cases::socket_force(of, E, g, n, approaches[i]),
                    1e-14 * forces.back());  // E* through derive(): round-off
    }
  }
  // Wang & Gao's light-load ratio 3 n sqrt(2)/(2n + 1) to first order in delta/dR.
  const double delta = 1e-9;
  const double ratio =
      elastic_normal_forces(with_law("socket-wang-gao-0.5mm.json", "wang-gao"), {delta})[0] /
      elastic_normal_forces(with_law("socket-wang-gao-0.5mm.json", "hertz"), {delta})[0];
  EXPECT_NEAR(ratio, 6 * std::sqrt(2.0) / 5, 2 * delta / 0.5e-3);
}

TEST(StaticLaws, PlaneLawsAreHertz) {
  const double delta = 2e-6;
  for (const char* law : {"hertz", "hunt-crossley", "lankarani-nikravesh", "flores"}) {
    const cases::Case c = with_law("hertz-steel-sphere.json", law);
    const cases::Derived d = cases::derive(c);
    const double hertz = 4.0 / 3.0 * d.contact_modulus * std::sqrt(0.01) * delta * std::sqrt(delta);
    EXPECT_NEAR(elastic_normal_forces(c, {delta})[0], hertz, 1e-12 * hertz);
  }
  EXPECT_THROW(elastic_normal_forces(with_law("hertz-steel-sphere.json", "hertz"), {0.02}),
               std::invalid_argument);  // 2 R
}

TEST(StaticLaws, RejectsApproachesOutsideTheLaw) {
  const cases::Case c = with_law("socket-wang-gao-0.5mm.json", "wang-gao");
  for (double bad : {-1e-9, double(NAN), double(INFINITY), 0.1, 0.2})
    EXPECT_THROW(elastic_normal_forces(c, {1e-6, bad}), std::invalid_argument) << bad;
  EXPECT_NO_THROW(elastic_normal_forces(c, {0.0999}));
}

}  // namespace
}  // namespace rebound::lumped
